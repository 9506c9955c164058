import type { ConfigProblem } from '../../../shared/protocol';
import type { Profile } from './profile';
import type { ProfileProblem } from './profileProblem';

/**
 * A profile problem as plain sentences, the same in the panel, the log and the CLI: where (the
 * file and line, or the setting), which agent, and what is wrong or not honoured.
 */
export function describeProfileProblem(p: ProfileProblem): string {
  const line = p.range ? `, line ${p.range.start.line + 1}` : '';
  const fromFile = p.path !== undefined || /\.md$/.test(p.source);
  const text = p.message.trim().replace(/[.]$/, '');
  // A setting has no line: name the field, unless the sentence already does.
  const top = p.field.split('.')[0]!;
  const named = top !== '' && new RegExp(`\\b${top.replace(/[^\w-]/g, '')}\\b`, 'i').test(text);
  const field = !fromFile && top && !named ? `, "${p.field}"` : '';
  const who = p.name ? ` (agent "${p.name}")` : '';
  const where = fromFile ? `${p.source}${line}${who}` : p.name ? `${p.source}${who}${field}` : `"subagents.agents" in ${p.source}`;
  return `${where}: ${text}.`;
}

/** The problem in the one shape the panel, the log, the CLI's --json and the editor share. */
export function toConfigProblem(p: ProfileProblem, message = describeProfileProblem(p)): ConfigProblem {
  const location: NonNullable<ConfigProblem['location']> = {};
  if (p.path) location.path = p.path;
  if (p.range) {
    location.line = p.range.start.line + 1;
    location.column = p.range.start.character + 1;
  }
  if (p.setting) location.setting = p.setting;
  const where = location.path !== undefined || location.setting !== undefined ? { location } : {};
  return { message, severity: p.severity, code: p.code, ...where };
}

/** The file itself could not become a profile: there is no agent of it yet. */
const UNREADABLE: readonly ProfileProblem['code'][] = ['no-front-matter', 'bad-yaml', 'not-a-mapping'];

/**
 * The problem and, for an error, what works meanwhile (given the merged profiles): for the panel,
 * the log and the CLI. "The other agents still work" is said only when another agent is available.
 */
export function describeProfileProblemAndEffect(p: ProfileProblem, profiles: ReadonlyMap<string, Pick<Profile, 'source'>>): string {
  const sentence = describeProfileProblem(p);
  if (p.severity !== 'error') return sentence;
  const others = [...profiles.keys()].filter((n) => n !== p.name).length;
  const rest = others > 0 ? ' The other agents still work.' : ' No other agent is available either.';
  if (UNREADABLE.includes(p.code)) return `${sentence} The file is left out until it is fixed.${rest}`;
  if (!p.name) return `${sentence} These agents are left out until it is fixed.${rest}`;
  const lower = profiles.get(p.name);
  if (lower)
    return `${sentence} Until it is fixed, the "${p.name}" of ${lower.source === 'built-in' ? 'the built-ins' : lower.source} is used instead.${rest}`;
  return `${sentence} "${p.name}" is left out until it is fixed.${rest}`;
}
