/**
 * The fields an agent file may have, per dialect, with what each means here: the hover text and
 * the completion list of the language server, and the line reader's list of field names.
 */

export type AgentFileDialect = 'native' | 'claude' | 'copilot';

export interface FieldDoc {
  /** Markdown for hover and completion. */
  doc: string;
  /** A snippet-free example value, for completion. */
  example?: string;
}

const MCP_SERVERS_DOC =
  "MCP servers started only for this agent's runs: a map of server names to `{command, args, env, cwd}` (a server to start) or `{url, headers}` (one to connect to). " +
  "Its tools are `mcp__<server>__<tool>`. A workspace's agent file starts its servers only once you approved them.";
const ENABLED = 'Set to `false` to switch off an agent of the same name from a lower layer.';
const ISOLATION =
  "`worktree`: the agent works in a git worktree of its own (HEAD plus the workspace's uncommitted and untracked changes, on a branch named after the run), " +
  'never in the workspace; its changes wait for you to apply them (a 3-way merge) or discard them. The workspace must be a git repository.';

export const NATIVE_FIELDS: Readonly<Record<string, FieldDoc>> = {
  name: { doc: "The agent's id (a slug: lowercase letters, digits and dashes). Defaults to the file name.", example: 'reviewer' },
  displayName: {
    doc: 'How people see the agent in the panel and in `profiles list`; the supervisor uses the id.',
    example: 'Code Reviewer',
  },
  description: {
    doc: '**Required.** What the agent is good at and when to use it: the supervisor reads this to decide whom to delegate to.',
    example: 'Reviews diffs for bugs and risky changes',
  },
  model: {
    doc: "A model spec (`anthropic:claude-sonnet-5-5`, `vscode-lm:copilot/gpt-4.1`, `openai-compatible:<url>#<model>`), an alias (`sonnet`, `opus`, `haiku`, or one of `subagents.modelAliases`), `inherit`, or a list tried in order. Absent: the parent's model.",
    example: 'inherit',
  },
  tools: {
    doc: 'The tools this agent may use (an allowlist): `read_file`, `list_dir`, `find_files`, `search_text`, `write_file`, `edit_file`, `run_command`, and `delegate_task` with the `subagent_*` tools to delegate. Absent: every tool.',
    example: '[read_file, search_text]',
  },
  disallowedTools: { doc: 'Tools this agent never gets, taken out of `tools` (or of every tool).', example: '[run_command]' },
  maxSteps: {
    doc: 'At most this many model calls per run (1–1000; default 25). A run that uses them all ends with status `max_steps`.',
    example: '25',
  },
  timeoutMs: { doc: 'A run that takes longer than this many milliseconds ends with status `timeout`.', example: '600000' },
  maxTokens: {
    doc: 'At most this many tokens (input plus output, as the provider counts them) for a run of this agent and every subagent it starts. A run that reaches it ends with status `budget` and what it had done; its parent goes on.',
    example: '200000',
  },
  returnDirectly: { doc: "Hand this agent's answer straight to the user, without another supervisor turn.", example: 'false' },
  agents: { doc: 'Whom this agent may delegate to (agent ids), when `subagents.maxDepth` allows.', example: '[explore]' },
  mcpServers: { doc: MCP_SERVERS_DOC },
  enabled: { doc: ENABLED, example: 'true' },
  isolation: { doc: ISOLATION, example: 'worktree' },
  skills: {
    doc: "Skills (folders with a SKILL.md in `.claude/skills`, `.github/skills`, `.agents/skills` or the same under `~`) whose instructions join this agent's prompt from its start; every agent can also load any skill with `load_skill`.",
    example: '[code-review]',
  },
  acp: {
    doc: 'An external agent spoken to over ACP (Agent Client Protocol) instead of a model: `{ command, args, env }`, e.g. `{ command: gemini, args: [--acp] }`. One declared by the workspace starts only with your consent (in the CLI: `--allow-acp NAME`).',
    example: '{ command: gemini, args: [--acp] }',
  },
};

const LATER = 'Not used here yet: ';

export const CLAUDE_FIELDS: Readonly<Record<string, FieldDoc>> = {
  name: { doc: "**Required** by Claude Code: the agent's id. Here too; a name that is not a slug is made one." },
  description: { doc: '**Required.** When to use this agent: the supervisor reads it.' },
  tools: { doc: 'Claude Code tool names (`Read, Grep, Glob, Bash`), mapped to ours. Absent: every tool.' },
  disallowedTools: { doc: 'Claude Code tool names this agent never gets, mapped to ours.' },
  model: { doc: '`sonnet`, `opus`, `haiku`, `inherit` or a model id, resolved through `subagents.modelAliases`.' },
  maxTurns: { doc: 'At most this many turns: our `maxSteps`.' },
  permissionMode: { doc: `${LATER}approvals follow the \`subagents.approval\` setting for every agent.` },
  skills: {
    doc: "Skills (folders with a SKILL.md in `.claude/skills`, `.github/skills`, `.agents/skills` or the same under `~`) whose instructions join this agent's prompt from its start.",
  },
  mcpServers: { doc: `${MCP_SERVERS_DOC} Names of servers configured elsewhere are accepted too.` },
  hooks: { doc: `${LATER}hooks are a Claude Code feature.` },
  memory: { doc: `${LATER}there is no persistent agent memory here.` },
  background: {
    doc: 'Not needed here: the supervisor decides whether a subagent runs in the background (`delegate_task` with `background: true`).',
  },
  effort: { doc: `${LATER}the model\'s own default effort is used.` },
  isolation: { doc: ISOLATION },
  color: { doc: "The panel uses the theme's colours, not Claude Code's display colour." },
  initialPrompt: { doc: `${LATER}the agent starts from the task it is given.` },
};

export const COPILOT_FIELDS: Readonly<Record<string, FieldDoc>> = {
  name: { doc: "Copilot's display name: shown in the panel and in `profiles list`. The id is the file name without `.agent.md`." },
  description: { doc: '**Required here** (optional in Copilot): what the agent is for; the supervisor reads it.' },
  tools: { doc: 'Copilot tools and tool sets (`search`, `edit/editFiles`, `github/*`), mapped to ours. Absent: every tool.' },
  model: {
    doc: 'A Copilot model name (`GPT-4.1`, `Claude Sonnet 4.5`) or a list tried in order, resolved through `subagents.modelAliases`.',
  },
  agents: { doc: 'The agents this one may delegate to, by id or by display name.' },
  handoffs: { doc: `${LATER}there are no hand-off buttons; the supervisor decides what comes next.` },
  'argument-hint': { doc: `${LATER}agents get their task from the supervisor.` },
  target: { doc: "`vscode` or `github-copilot`; agents for GitHub's coding agent are loaded too, with a note." },
  'mcp-servers': { doc: `${MCP_SERVERS_DOC} Copilot's \`type\` (local, stdio, http, sse) and \`tools\` list of each server are honoured.` },
  'user-invocable': { doc: 'Whether people pick this agent themselves; here the supervisor delegates to every agent.' },
  'disable-model-invocation': { doc: `${LATER}the supervisor may delegate to every agent.` },
  infer: { doc: `${LATER}(replaced in Copilot by \`user-invocable\` and \`disable-model-invocation\`).` },
  mode: { doc: `${LATER}every agent here works in agent mode.` },
  agent: { doc: `${LATER}every agent here works in agent mode.` },
  applyTo: { doc: `${LATER}this is a field of instruction files.` },
  license: { doc: 'Not used here.' },
  compatibility: { doc: 'Not used here.' },
  metadata: { doc: 'Not used here.' },
};

/** Fields people put in agent files that no tool defines; the line reader knows their names too. */
const FOLK_FIELDS = ['version', 'hidden', 'color', 'skills', 'tags', 'author', 'category'];

export const FIELDS_OF: Readonly<Record<AgentFileDialect, Readonly<Record<string, FieldDoc>>>> = {
  native: NATIVE_FIELDS,
  claude: CLAUDE_FIELDS,
  copilot: COPILOT_FIELDS,
};

/** Every field name any dialect knows: a `word:` line with one of these starts a field. */
export const KNOWN_FIELD_NAMES: ReadonlySet<string> = new Set([
  ...Object.keys(NATIVE_FIELDS),
  ...Object.keys(CLAUDE_FIELDS),
  ...Object.keys(COPILOT_FIELDS),
  ...FOLK_FIELDS,
]);
