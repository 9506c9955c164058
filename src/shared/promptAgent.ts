import { findAgentId } from './agentId';
import { brokenAgentText, findBrokenAgent, type BrokenAgentView } from './brokenAgent';

/**
 * `@agent` at the start of a prompt: that profile answers the turn instead of the supervisor (as
 * the CLI's `--agent`). A name the panel does not know is an error it says, not text it sends.
 */

export type PromptTarget = { ok: true; text: string; agent?: string } | { ok: false; error: string };

const MENTION = /^@([A-Za-z0-9][\w.-]*)(?:\s+|$)/;

/** `broken`: agents whose file failed to load; naming one says which file and why. */
export function parsePromptAgent(prompt: string, agents: readonly string[], broken: readonly BrokenAgentView[] = []): PromptTarget {
  const text = prompt.trim();
  const m = MENTION.exec(text);
  if (!m) return { ok: true, text };
  const name = m[1]!;
  // `@code.reviewer`, as its file names it, is the agent `code-reviewer` the loader made of it.
  const known = agents.find((a) => a === name) ?? agents.find((a) => a.toLowerCase() === name.toLowerCase()) ?? findAgentId(agents, name);
  if (!known) {
    const failed = findBrokenAgent(broken, name);
    if (failed) return { ok: false, error: brokenAgentText(failed) };
    const list = agents.length
      ? `Agents: ${agents.map((a) => `@${a}`).join(', ')}.`
      : 'No subagents are configured (subagents.agents or .vscode/agents/).';
    return { ok: false, error: `There is no agent "${name}". ${list}` };
  }
  const rest = text.slice(m[0].length).trim();
  if (!rest) return { ok: false, error: `Say what @${known} should do after its name.` };
  return { ok: true, text: rest, agent: known };
}

/** The `@name` being typed at the very start of the prompt, for completion; undefined when there is none. */
export function agentPrefixAt(prompt: string, caret: number): string | undefined {
  const m = /^@([\w.-]*)$/.exec(prompt.slice(0, caret));
  return m ? m[1] : undefined;
}
