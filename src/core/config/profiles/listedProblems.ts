import type { ConfigProblem } from '../../../shared/protocol';
import { describeProfileProblemAndEffect, toConfigProblem } from './describeProfileProblem';
import type { Profile } from './profile';
import type { ProfileProblem } from './profileProblem';

/** Where a problem without a file of its own is fixed (a profile in a settings file: the key's line). */
export type LocateProblem = (p: ProfileProblem) => ConfigProblem['location'] | undefined;

/**
 * Profile problems for a list people read (the panel, the log): each error and warning on its own, at its place;
 * the notes of one file together, so fifty imported files make fifty lines, not five hundred.
 * The editor's Problems list (the language server) shows every one at its own line.
 */
export function listedProblems(
  all: readonly ProfileProblem[],
  profiles: ReadonlyMap<string, Pick<Profile, 'source'>>,
  locate?: LocateProblem,
): ConfigProblem[] {
  const out: ConfigProblem[] = [];
  const notes = new Map<string, ProfileProblem[]>();
  const placed = (p: ProfileProblem, problem: ConfigProblem): ConfigProblem => {
    const location = p.path ? undefined : locate?.(p);
    return location ? { ...problem, location } : problem;
  };
  for (const p of all) {
    if (p.severity !== 'information') {
      out.push(placed(p, toConfigProblem(p, describeProfileProblemAndEffect(p, profiles))));
      continue;
    }
    const key = p.path ?? p.setting ?? p.source;
    notes.set(key, [...(notes.get(key) ?? []), p]);
  }
  for (const group of notes.values()) {
    const first = group[0]!;
    if (group.length === 1) {
      out.push(placed(first, toConfigProblem(first)));
      continue;
    }
    const lines = group.map((p) => `${p.range ? `line ${p.range.start.line + 1}: ` : ''}${p.message.replace(/\.$/, '')}`);
    const who = first.name ? ` (agent "${first.name}")` : '';
    out.push(placed(first, toConfigProblem(first, `${first.source}${who}, ${group.length} notes: ${lines.join('; ')}.`)));
  }
  return out;
}
