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
 * command is the one its maker documents for ACP on stdio; the npx ones are Zed's adapters.
 */
export const ACP_RECIPES: readonly AcpRecipe[] = [
  {
    label: 'Claude Code',
    acp: { command: 'npx', args: ['-y', '@zed-industries/claude-code-acp'], env: {} },
    documented: 'https://github.com/zed-industries/claude-code-acp',
    login: 'claude /login',
  },
  {
    label: 'Codex',
    acp: { command: 'npx', args: ['-y', '@zed-industries/codex-acp'], env: {} },
    documented: 'https://github.com/zed-industries/codex-acp',
    login: 'codex login',
  },
  {
    label: 'Gemini CLI',
    acp: { command: 'gemini', args: ['--acp'], env: {} },
    documented: 'https://geminicli.com/docs/cli/acp-mode/',
    login: 'gemini',
  },
  {
    label: 'Copilot CLI',
    acp: { command: 'copilot', args: ['--acp'], env: {} },
    documented: 'https://docs.github.com/en/copilot/reference/acp-server',
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
