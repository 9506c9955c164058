import type { FileChangeNode, RunChanges, RunNode } from './runTree';

/** "3 files changed (+12 −4)": the summary on a run's node, in the CLI and in the parent's report. */
export function changeSummary(changes: RunChanges): string {
  const n = changes.files.length;
  return `${n} file${n === 1 ? '' : 's'} changed (+${changes.added} −${changes.removed})`;
}

/** One file's change in a few words: "src/a.ts (+3 −1)", "new.txt (new)", "old.txt (deleted)", "(uncertain)" for overlap. */
export function fileChangeText(file: FileChangeNode): string {
  const what = file.beforeHash === null ? 'new' : file.afterHash === null ? 'deleted' : `+${file.added} −${file.removed}`;
  return `${file.path} (${what}${file.attribution === 'overlap' ? ', uncertain: another command ran at the same time' : ''})`;
}

/** The files of a run a revert could still undo: changed by it (not taken back by the run itself) and not reverted since. */
export function changesLeft(run: Pick<RunNode, 'changes' | 'reverted'>): FileChangeNode[] {
  const reverted = new Set(run.reverted?.files ?? []);
  return (run.changes?.files ?? []).filter((f) => f.beforeHash !== f.afterHash && !reverted.has(f.path));
}

/** A run's changes as its node says them: "changes reverted" once nothing is left to undo, else the count (and how many were reverted). */
export function runChangesText(run: Pick<RunNode, 'changes' | 'reverted'>): string {
  if (!run.changes) return '';
  if (!run.reverted) return changeSummary(run.changes);
  const reverted = run.changes.files.filter((f) => run.reverted!.files.includes(f.path)).length;
  if (changesLeft(run).length === 0) return 'changes reverted';
  return `${changeSummary(run.changes)}, ${reverted} reverted`;
}
