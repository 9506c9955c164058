import type { AcpAgent } from '../profiles/profile';

/** A ready `acp:` for an agent people already use, with where its command is documented. */
export interface AcpRecipe {
  /** What the user picks: "Claude Code". */
  label: string;
  acp: AcpAgent;
  /** Where the command was checked (the agent's or its adapter's own documentation). */
  documented: string;
  /** How to log in before first use (said when the agent asks for a login). */
  login: string;
}

/**
 * The external agents the agent-file completion and the README offer (issue 44 item 7). Each
 * command is the one its maker documents for ACP on stdio (checked December 2026); the npx ones are
 * the ACP organisation's adapters (formerly Zed's).
 */
export const ACP_RECIPES: readonly AcpRecipe[] = [
  {
    label: 'Claude Code',
    // The successor of @zed-industries/claude-code-acp, maintained under the ACP organisation.
    acp: { command: 'npx', args: ['-y', '@agentclientprotocol/claude-agent-acp'], env: {} },
    documented: 'https://github.com/agentclientprotocol/claude-agent-acp',
    login: 'claude /login',
  },
  {
    label: 'Codex',
    // Development of @zed-industries/codex-acp moved here ("use the following package for new installs").
    acp: { command: 'npx', args: ['-y', '@agentclientprotocol/codex-acp'], env: {} },
    documented: 'https://github.com/agentclientprotocol/codex-acp',
    login: 'codex login',
  },
  {
    label: 'Gemini CLI',
    // `--acp` is stable (its earlier `--experimental-acp` is deprecated).
    acp: { command: 'gemini', args: ['--acp'], env: {} },
    documented: 'https://geminicli.com/docs/cli/acp-mode/',
    login: 'gemini',
  },
  {
    label: 'Copilot CLI',
    // `--stdio` is the default with --acp; GitHub's example passes it to be unambiguous.
    acp: { command: 'copilot', args: ['--acp', '--stdio'], env: {} },
    documented: 'https://docs.github.com/en/copilot/reference/copilot-cli-reference/acp-server',
    login: 'copilot login',
  },
  {
    label: 'OpenCode',
    acp: { command: 'opencode', args: ['acp'], env: {} },
    documented: 'https://opencode.ai/docs/acp/',
    login: 'opencode auth login',
  },
];

/** The recipe's `acp:` as YAML lines under the field, indented by two. */
export function acpRecipeYaml(recipe: AcpRecipe): string {
  const args = recipe.acp.args.map((a) => JSON.stringify(a)).join(', ');
  return `\n  command: ${recipe.acp.command}\n  args: [${args}]`;
}
