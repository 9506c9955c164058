import type { ProfileProblem } from './profile';

/** A profile problem as one sentence, the same in the panel, the log and the CLI. */
export function describeProfileProblem(p: ProfileProblem): string {
  const name = p.name ? `Agent "${p.name}"` : 'subagents.agents';
  return `${name} in ${p.source}${p.field ? `, field "${p.field}"` : ''}: ${p.message}.`;
}
