import type { FileChangeNode, RunChanges } from './runTree';

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
