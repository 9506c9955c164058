import type { ConfigProblem } from '../../shared/protocol';
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
  const field = !fromFile && top && !text.includes(`"${top}"`) && !text.startsWith(top) ? `, field "${p.field}"` : '';
  const where = fromFile ? `${p.source}${line}` : p.name ? `Agent "${p.name}" in ${p.source}${field}` : `subagents.agents in ${p.source}`;
  const who = fromFile && p.name ? ` (agent "${p.name}")` : '';
  return `${where}${who}: ${text}.`;
}

/** The problem in the one shape the panel, the log, the CLI's --json and the editor share. */
export function toConfigProblem(p: ProfileProblem): ConfigProblem {
  const location: NonNullable<ConfigProblem['location']> = {};
  if (p.path) location.path = p.path;
  if (p.range) {
    location.line = p.range.start.line + 1;
    location.column = p.range.start.character + 1;
  }
  if (p.setting) location.setting = p.setting;
  return { message: describeProfileProblem(p), severity: p.severity, code: p.code, ...(Object.keys(location).length ? { location } : {}) };
}
