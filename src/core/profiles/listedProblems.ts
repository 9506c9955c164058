import type { ConfigProblem } from '../../shared/protocol';
import { toConfigProblem } from './describeProfileProblem';
import type { ProfileProblem } from './profileProblem';

/**
 * Profile problems for a list people read (the panel, the log): each error and warning on its own, at its place;
 * the notes of one file together, so fifty imported files make fifty lines, not five hundred.
 * The editor's Problems list (the language server) shows every one at its own line.
 */
export function listedProblems(all: readonly ProfileProblem[]): ConfigProblem[] {
  const out: ConfigProblem[] = [];
  const notes = new Map<string, ProfileProblem[]>();
  for (const p of all) {
    if (p.severity !== 'information') {
      const problem = toConfigProblem(p);
      out.push(p.severity === 'error' ? { ...problem, message: `${problem.message} The other agents still work.` } : problem);
      continue;
    }
    const key = p.path ?? p.setting ?? p.source;
    notes.set(key, [...(notes.get(key) ?? []), p]);
  }
  for (const group of notes.values()) {
    const first = group[0]!;
    if (group.length === 1) {
      out.push(toConfigProblem(first));
      continue;
    }
    const lines = group.map((p) => `${p.range ? `line ${p.range.start.line + 1}: ` : ''}${p.message.replace(/\.$/, '')}`);
    const who = first.name ? ` (agent "${first.name}")` : '';
    out.push({ ...toConfigProblem(first), message: `${first.source}${who}, ${group.length} notes: ${lines.join('; ')}.` });
  }
  return out;
}
