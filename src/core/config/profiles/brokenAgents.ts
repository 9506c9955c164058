import { agentIdOfFile, brokenAgentText, findBrokenAgent, type BrokenAgentView } from '../../../shared/brokenAgent';
import type { ProfileProblem } from './profileProblem';

/**
 * The agents whose definition failed to load (an error kept them out) and that no other
 * definition stands in for: each named once, by its first error, with its file and line.
 */
export function brokenAgents(
  problems: readonly ProfileProblem[],
  enabled: ReadonlySet<string> | ReadonlyMap<string, unknown>,
): BrokenAgentView[] {
  const out: BrokenAgentView[] = [];
  for (const p of problems) {
    if (p.severity !== 'error') continue;
    const name = p.name || (p.path || /\.md$/i.test(p.source) ? agentIdOfFile(p.path ?? p.source) : '');
    if (!name || enabled.has(name) || out.some((b) => b.name === name)) continue;
    const line = p.range ? `, line ${p.range.start.line + 1}` : '';
    out.push({ name, file: `${p.source}${line}`, why: p.message.trim() });
  }
  return out;
}

/** Why there is no agent `name` to run: it failed to load (its file and why), or there is none of that name. */
export function unknownAgentText(name: string, problems: readonly ProfileProblem[], enabled: ReadonlyMap<string, unknown>): string {
  const broken = findBrokenAgent(brokenAgents(problems, enabled), name);
  if (broken) return brokenAgentText(broken);
  return `There is no enabled agent "${name}". Available agents: ${[...enabled.keys()].join(', ') || '(none)'}.`;
}
