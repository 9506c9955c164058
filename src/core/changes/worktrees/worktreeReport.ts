import type { WorktreeManifest } from './worktreeManifest';

/** What the parent reads at the end of a worktree run's output: where its changes are and what the user may do. */
export function worktreeReport(pending: WorktreeManifest | undefined, branch: string): string {
  if (!pending?.files?.length) return 'This run worked in its own git worktree and changed no files there; the worktree was removed.';
  const files = pending.files;
  const added = files.reduce((n, f) => n + f.added, 0);
  const removed = files.reduce((n, f) => n + f.removed, 0);
  const list = files.slice(0, 20).map((f) => `${f.path} (${f.status === 'modified' ? `+${f.added} −${f.removed}` : f.status})`);
  const more = files.length > 20 ? `, and ${files.length - 20} more` : '';
  return (
    `This run worked in its own git worktree (branch ${branch}), so its changes are NOT in the workspace yet: ` +
    `${files.length} file${files.length === 1 ? '' : 's'} changed (+${added} −${removed}): ${list.join(', ')}${more}. ` +
    'The user can apply them to the workspace (a 3-way merge) or discard them.'
  );
}
