import { AGENT_FILE_SOURCES } from './agentFile';
import type { Profile, ProfileProblem } from './profile';

/** What is wrong with a profile and where to fix it, as a plain sentence (the same everywhere). */
export function describeProfileProblem(p: ProfileProblem): string {
  return whatIsWrong(p, isAgentFileSource(p.source), isUnreadable(p));
}

/**
 * The problem and, given the merged profiles, what works meanwhile: for the panel, the log and the
 * CLI. "The other agents still work" is said only when some other agent is in fact available.
 */
export function describeProfileProblemAndEffect(p: ProfileProblem, profiles: ReadonlyMap<string, Pick<Profile, 'source'>>): string {
  return `${describeProfileProblem(p)} ${meanwhile(p, isUnreadable(p), profiles)}`;
}

/** The file itself could not be read (agentFile.ts says what it "has"); its agent has no name yet. */
function isUnreadable(p: ProfileProblem): boolean {
  return isAgentFileSource(p.source) && !p.field && p.message.startsWith('has ');
}

/** `.vscode/agents/x.md`, `.claude/agents/x.md`, `.github/agents/x.agent.md`. */
export function isAgentFileSource(source: string): boolean {
  return AGENT_FILE_SOURCES.some((s) => source.startsWith(`${s.dir}/`) && source.endsWith(s.suffix));
}

function whatIsWrong(p: ProfileProblem, fromFile: boolean, unreadable: boolean): string {
  const message = p.message.replace(/\.$/, '');
  if (unreadable) return `${p.source} ${message}.`;
  if (!p.name) return `"subagents.agents" in ${p.source}: ${message}.`;
  const name = `"${p.name}"`;
  if (!p.field) {
    // Messages about the name itself start with it: put the place right after it.
    return message.startsWith(name) ? `${name} in ${p.source}${message.slice(name.length)}.` : `${name} in ${p.source}: ${message}.`;
  }
  const field = p.field.split('.')[0]!;
  if (/received undefined$/.test(message)) {
    const entry = fromFile ? `the front matter of ${p.source}` : `its entry in "subagents.agents" in ${p.source}`;
    return `${name} has no ${field}: add "${field}" to ${entry}.`;
  }
  if (message.startsWith('unknown field')) return `${name} in ${p.source} has an ${message}.`;
  return `${name} in ${p.source} has a bad "${p.field}": ${message}.`;
}

function meanwhile(p: ProfileProblem, unreadable: boolean, profiles: ReadonlyMap<string, Pick<Profile, 'source'>>): string {
  const others = [...profiles.keys()].filter((n) => n !== p.name).length;
  const rest = others > 0 ? ' The other agents still work.' : ' No other agent is available either.';
  if (unreadable) return `The file is left out until it is fixed.${rest}`;
  if (!p.name) return `These agents are left out until it is fixed.${rest}`;
  const lower = profiles.get(p.name);
  if (lower) return `Until it is fixed, the "${p.name}" of ${lower.source === 'built-in' ? 'the built-ins' : lower.source} is used instead.${rest}`;
  return `"${p.name}" is left out until it is fixed.${rest}`;
}
