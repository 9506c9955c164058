import { oneLine } from '../../shared/oneLine';

/** What a diff editor shows: an edit that waits for approval, or what a run changed. */
export type DiffOf = { kind: 'proposed edit' } | { kind: 'run'; agent: string; changedSince: boolean };

/**
 * The diff editor's tab title: the file's name once, then what the diff is, as VS Code's own diffs
 * read ("invoice.ts (Working Tree)"): "invoice.ts (proposed edit)", "invoice.ts (changes of fixer)".
 * Only the name: VS Code adds the folder as the tab's description, and the file's name again in
 * the tooltip and window title, so a path here named the file twice there.
 */
export function diffTitle(path: string, of: DiffOf): string {
  const name = path.split(/[\\/]/).filter(Boolean).at(-1) ?? path;
  if (of.kind === 'proposed edit') return `${name} (proposed edit)`;
  const agent = oneLine(of.agent, 40) || 'a run';
  // The after side is then the snapshot of what the run left, not the file as it is now.
  return `${name} (changes of ${agent}${of.changedSince ? ', as it left it: changed since' : ''})`;
}
