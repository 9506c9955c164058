import { agentIdOf } from './agentId';

/** An agent whose file failed to load: `@name` is not offered as an agent, and mentioning it says why. */
export interface BrokenAgentView {
  /** The id the agent would have (its `name:`, or its file's name when the file says none). */
  name: string;
  /** Where it comes from, for people (".github/agents/broken.agent.md"), with the line when known. */
  file: string;
  /** What is wrong, as a sentence. */
  why: string;
}

/** "@broken did not load: .github/agents/broken.agent.md, line 4: …. Fix the file, then try again." */
export function brokenAgentText(agent: BrokenAgentView): string {
  return `@${agent.name} did not load: ${agent.file}: ${agent.why.replace(/\.$/, '')}. Fix the file, then try again.`;
}

/** The agent among the broken ones that `written` means (as `@written` or `--agent written`), if any. */
export function findBrokenAgent(broken: readonly BrokenAgentView[], written: string): BrokenAgentView | undefined {
  const id = agentIdOf(written.replace(/^@/, ''));
  return broken.find((b) => b.name === written || b.name === id);
}

/** The id an agent file would give its agent when it says no name: its file name without `.agent.md`, `.chatmode.md` or `.md`. */
export function agentIdOfFile(file: string): string {
  const base = file.split(/[\\/]/).pop() ?? file;
  return agentIdOf(base.replace(/(\.agent|\.chatmode)?\.md$/i, ''));
}
