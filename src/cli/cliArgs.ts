import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { ParseArgsConfig } from 'node:util';
import { UsageError } from './cliError';
import { defaultStorageOf } from './defaultStorage';
import { approvalModeSchema, type ApprovalMode } from '../core/config/settings/engineSettings';

export const USAGE = `subagents: a supervisor agent that delegates to subagents, headless.

Usage:
  subagents run [options] PROMPT      Run PROMPT (use - to read it from stdin) until the thread is quiet
  subagents acp [options]             Serve the supervisor as an ACP agent on stdin/stdout, for Zed,
                                      JetBrains or any Agent Client Protocol client: each session
                                      works in the folder the client names; run's options (--model,
                                      --agent, --max-depth and the trust flags below) apply to all
  subagents threads list [--all]      Top-level threads, most recent first (--all: child threads too)
  subagents threads show ID [--effective]
                                      The run tree of a thread: agents, status, stats and tool calls
                                      (--effective: each run's configuration as given: profile source,
                                      model and how it was reached, tools, limits, prompts)
  subagents threads export ID [--format md|json]
                                      The thread as Markdown (default) or JSON
  subagents threads delete ID         Delete a thread and its child threads
  subagents threads import FILE       Add a thread exported as JSON, with its child threads (refused when its id is taken)
  subagents threads revert RUN [--dry-run] [--yes]
                                      Undo the file changes of one run (a file changed since is
                                      left as it is and listed); exit 1 when any was skipped
  subagents threads apply RUN         Merge a worktree run's changes into the workspace (3-way)
  subagents threads discard RUN       Throw away a worktree run's changes and its worktree
  subagents profiles list             The enabled agent profiles and where each comes from
  subagents profiles validate         Check the profiles; exit 2 when any has a problem

Options:
  --workspace DIR       The folder the agents work in (default: the current directory)
  --storage DIR         Where threads are kept (default: <workspace>/.subagents/threads)
  --json                Machine-readable output (run: one RunEvent per line on stdout)
  --model SPEC          Model for this run, overriding subagents.model: vscode-lm:<vendor>/<family>
                        (extension only), openai-compatible:<baseURL>#<model>, openai:<model>,
                        anthropic:<model>, scripted:<path>
  --agent NAME          Start the thread with this profile instead of the supervisor
  --thread ID           Continue this thread
  --max-depth N         How deep delegation may nest (0-5), overriding subagents.maxDepth
  --otlp-endpoint URL   Send a trace of every run to this OpenTelemetry collector over OTLP/HTTP
                        (e.g. http://localhost:4318; /v1/traces is added to a bare origin): an
                        invoke_agent span per run, execute_tool per tool call, tokens and status.
                        Never taken from the workspace's settings. Headers: OTEL_EXPORTER_OTLP_HEADERS
  --otlp-record-content Put the prompts, outputs and tools' arguments and results in those traces
                        (secrets still redacted); without it they hold names, tokens and status only

What agents may do without asking comes from these flags only, never from the workspace:
  --approval MODE       ask (default) | autoEdit | trust
  --allow-command PREFIX
                        A command prefix that runs unasked in ask and autoEdit modes (repeatable;
                        read-only commands such as cat, tail, wc, grep need none, nor git status,
                        diff, log inside the OS sandbox)
  --trusted-domain HOST A host web_fetch reaches unasked (repeatable; example.com, *.example.com,
                        localhost:8080); only a host named here may be on this machine or the LAN
  --sandbox MODE        auto (default: the OS sandbox where there is one) | on | off
  --sandbox-allow-host HOST
                        A host sandboxed commands may reach (repeatable; default: none)
  --command-env-exclude PATTERN
                        An environment variable commands never see, * and ? allowed (repeatable)
  --allow-key-for ORIGIN
                        Send SUBAGENTS_API_KEY to this server (http://host:port) although the
                        workspace, not you, chose it (repeatable)
  --allow-mcp NAME      Start the MCP server NAME that the workspace declares (.vscode/settings.json,
                        .vscode/mcp.json, .mcp.json or an agent file) without asking (repeatable)
  --allow-hooks         Run the repository's hooks (.claude/settings.json, .claude/settings.local.json,
                        .github/hooks/*.json, subagents.hooks in .vscode/settings.json), in the OS
                        sandbox. Your own ~/.claude/settings.json hooks always run, in it too
  --user-hooks-outside-sandbox
                        Run your own ~/.claude/settings.json hooks outside the sandbox, as you wrote
                        them: the tools they start (npx, eslint, python -m) then load what an agent
                        wrote in the workspace, as you. Never the repository's hooks
  --allow-acp NAME      Start the external agent NAME (a profile with "acp") that the workspace
                        declares, as declared now (its command, arguments, env, file and the
                        workspace scripts it names): it runs as you, outside the sandbox (repeatable)
  -h, --help            Show this help

Settings come from <workspace>/.vscode/settings.json (comments allowed): subagents.model,
subagents.agents, subagents.maxDepth, subagents.maxConcurrency, subagents.maxActiveChildren,
subagents.supervisor, subagents.budget, subagents.allowedModels and the other subagents.* settings.
Flags override them. Settings that raise trust (subagents.approval,
subagents.autoApproveCommands, subagents.trustedDomains, subagents.sandbox.*, subagents.commandEnv.*)
and where traces go (subagents.telemetry.*) are ignored there, with a notice: use the flags above. API keys come from OPENAI_API_KEY,
ANTHROPIC_API_KEY and SUBAGENTS_API_KEY (openai-compatible servers); the last is sent only to a
server you named (--model) or allowed (--allow-key-for).

Exit codes: 0 done, 1 the run failed, 2 bad usage or configuration, 130 interrupted (Ctrl+C).`;

/** Where a command works: the workspace and its thread storage. */
export interface Place {
  workspace: string;
  storage: string;
  json: boolean;
}

/** What the user allowed on the command line: the settings a workspace may not set (userOnlySettings.ts). */
export interface TrustFlags {
  approval?: ApprovalMode;
  allowCommands: string[];
  trustedDomains: string[];
  sandbox?: string;
  sandboxAllowHosts: string[];
  commandEnvExclude: string[];
  /** Origins that may receive SUBAGENTS_API_KEY although the workspace chose them. */
  allowKeyFor: string[];
  /** MCP servers the workspace declares that may start without asking. */
  allowMcp: string[];
  /** Run the repository's hooks (.claude/settings*.json, .github/hooks, subagents.hooks in .vscode/settings.json). */
  allowHooks: boolean;
  /** subagents.sandbox.userHooksOutside: the user's own hooks run outside the sandbox. */
  userHooksOutside: boolean;
  allowAcp: string[];
  /** Where traces go (subagents.telemetry.otlpEndpoint): a flag, never the workspace, since it sends data away. */
  otlpEndpoint?: string;
  otlpRecordContent: boolean;
}

export type Command =
  | { name: 'help' }
  | ({ name: 'run'; prompt: string; model?: string; agent?: string; thread?: string; maxDepth?: number; trust: TrustFlags } & Place)
  /** The workspace of each session is the folder its client names (session/new's cwd). */
  | { name: 'acp'; model?: string; agent?: string; maxDepth?: number; trust: TrustFlags }
  | ({ name: 'threads list'; all: boolean } & Place)
  | ({ name: 'threads show'; id: string; effective: boolean } & Place)
  | ({ name: 'threads delete'; id: string } & Place)
  | ({ name: 'threads export'; id: string; format: 'md' | 'json' } & Place)
  | ({ name: 'threads import'; file: string } & Place)
  /** `yes`: revert changes whose author is uncertain (overlap) without asking. */
  | ({ name: 'threads revert'; runId: string; dryRun: boolean; yes: boolean } & Place)
  | ({ name: 'threads apply' | 'threads discard'; runId: string } & Place)
  | ({ name: 'profiles list' | 'profiles validate' } & Place);

const PLACE_OPTIONS = {
  workspace: { type: 'string' },
  storage: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies ParseArgsConfig['options'];

const RUN_OPTIONS = {
  ...PLACE_OPTIONS,
  model: { type: 'string' },
  agent: { type: 'string' },
  thread: { type: 'string' },
  approval: { type: 'string' },
  'max-depth': { type: 'string' },
  'allow-command': { type: 'string', multiple: true },
  'trusted-domain': { type: 'string', multiple: true },
  sandbox: { type: 'string' },
  'sandbox-allow-host': { type: 'string', multiple: true },
  'command-env-exclude': { type: 'string', multiple: true },
  'allow-key-for': { type: 'string', multiple: true },
  'allow-mcp': { type: 'string', multiple: true },
  'allow-hooks': { type: 'boolean' },
  'user-hooks-outside-sandbox': { type: 'boolean' },
  'allow-acp': { type: 'string', multiple: true },
  'otlp-endpoint': { type: 'string' },
  'otlp-record-content': { type: 'boolean' },
} as const satisfies ParseArgsConfig['options'];

const HINT = 'Run "subagents --help" for usage.';

function parse<O extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: O) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(`${(error as Error).message.replace(/\.?$/, '.')} ${HINT}`);
  }
}

function place(
  values: { workspace?: string | boolean | undefined; storage?: string | boolean | undefined; json?: string | boolean | undefined },
  cwd: string,
): Place {
  const workspace = resolve(cwd, typeof values.workspace === 'string' ? values.workspace : '.');
  const storage = typeof values.storage === 'string' ? resolve(cwd, values.storage) : defaultStorageOf(workspace);
  return { workspace, storage, json: values.json === true };
}

function oneId(positionals: string[], what: string): string {
  if (positionals.length !== 1) throw new UsageError(`"subagents ${what}" takes one thread ID (see "subagents threads list"). ${HINT}`);
  return positionals[0]!;
}

function oneRun(positionals: string[], what: string): string {
  if (positionals.length !== 1)
    throw new UsageError(`"subagents ${what}" takes one run ID (r_…, see "subagents threads show ID"). ${HINT}`);
  return positionals[0]!;
}

type RunValues = ReturnType<typeof parse<typeof RUN_OPTIONS>>['values'];

/** The flags `run` and `acp` share: the model, the agent, the depth and what raises trust. */
function runFlags(values: RunValues) {
  let approval: ApprovalMode | undefined;
  if (values.approval !== undefined) {
    const checked = approvalModeSchema.safeParse(values.approval);
    if (!checked.success) throw new UsageError(`--approval must be ask, autoEdit or trust, not "${values.approval}".`);
    approval = checked.data;
  }
  let maxDepth: number | undefined;
  if (values['max-depth'] !== undefined) {
    maxDepth = Number(values['max-depth']);
    if (!/^\d+$/.test(values['max-depth']) || maxDepth > 5)
      throw new UsageError(`--max-depth must be a whole number from 0 to 5, not "${values['max-depth']}".`);
  }
  const trust: TrustFlags = {
    ...(approval === undefined ? {} : { approval }),
    allowCommands: values['allow-command'] ?? [],
    trustedDomains: values['trusted-domain'] ?? [],
    ...(values.sandbox === undefined ? {} : { sandbox: values.sandbox }),
    sandboxAllowHosts: values['sandbox-allow-host'] ?? [],
    commandEnvExclude: values['command-env-exclude'] ?? [],
    allowKeyFor: (values['allow-key-for'] ?? []).map(checkOrigin),
    allowMcp: values['allow-mcp'] ?? [],
    allowHooks: values['allow-hooks'] === true,
    userHooksOutside: values['user-hooks-outside-sandbox'] === true,
    allowAcp: values['allow-acp'] ?? [],
    ...(values['otlp-endpoint'] === undefined ? {} : { otlpEndpoint: values['otlp-endpoint'] }),
    otlpRecordContent: values['otlp-record-content'] === true,
  };
  return {
    ...(values.model === undefined ? {} : { model: values.model }),
    ...(values.agent === undefined ? {} : { agent: values.agent }),
    ...(maxDepth === undefined ? {} : { maxDepth }),
    trust,
  };
}

function runCommand(args: string[], cwd: string): Command {
  const { values, positionals } = parse(args, RUN_OPTIONS);
  if (values.help) return { name: 'help' };
  const prompt = positionals.join(' ').trim();
  if (!prompt)
    throw new UsageError(
      `"subagents run" needs a PROMPT: say what to do, e.g. subagents run "explain src/app.ts" (or - to read stdin). ${HINT}`,
    );
  return {
    name: 'run',
    ...place(values, cwd),
    prompt,
    ...(values.thread === undefined ? {} : { thread: values.thread }),
    ...runFlags(values),
  };
}

function acpCommand(args: string[]): Command {
  const { values, positionals } = parse(args, RUN_OPTIONS);
  if (values.help) return { name: 'help' };
  if (positionals.length) throw new UsageError(`"subagents acp" takes no arguments: the client sends the prompts. ${HINT}`);
  const placeOnly = ['workspace', 'storage', 'json', 'thread'] as const;
  const misplaced = placeOnly.find((name) => values[name] !== undefined);
  if (misplaced)
    throw new UsageError(
      `"subagents acp" takes no --${misplaced}: each session works in the folder its client names, with its threads in <folder>/.subagents/threads. ${HINT}`,
    );
  return { name: 'acp', ...runFlags(values) };
}

/** An origin as --allow-key-for takes it: scheme, host and port, as the browser would write it. */
function checkOrigin(value: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new UsageError(`--allow-key-for takes an origin such as http://localhost:11434, not "${value}".`);
  }
  return url.origin;
}

function threadsCommand(args: string[], cwd: string): Command {
  const [action, ...rest] = args;
  if (action === 'list') {
    const { values, positionals } = parse(rest, { ...PLACE_OPTIONS, all: { type: 'boolean' } });
    if (values.help) return { name: 'help' };
    if (positionals.length) throw new UsageError(`"subagents threads list" takes no arguments. ${HINT}`);
    return { name: 'threads list', ...place(values, cwd), all: values.all === true };
  }
  if (action === 'show') {
    const { values, positionals } = parse(rest, { ...PLACE_OPTIONS, effective: { type: 'boolean' } });
    if (values.help) return { name: 'help' };
    return { name: 'threads show', ...place(values, cwd), id: oneId(positionals, 'threads show'), effective: values.effective === true };
  }
  if (action === 'delete') {
    const { values, positionals } = parse(rest, PLACE_OPTIONS);
    if (values.help) return { name: 'help' };
    return { name: 'threads delete', ...place(values, cwd), id: oneId(positionals, 'threads delete') };
  }
  if (action === 'export') {
    const { values, positionals } = parse(rest, { ...PLACE_OPTIONS, format: { type: 'string' } });
    if (values.help) return { name: 'help' };
    const format = values.format ?? (values.json ? 'json' : 'md');
    if (format !== 'md' && format !== 'json') throw new UsageError(`--format must be md or json, not "${format}".`);
    return { name: 'threads export', ...place(values, cwd), id: oneId(positionals, 'threads export'), format };
  }
  if (action === 'import') {
    const { values, positionals } = parse(rest, PLACE_OPTIONS);
    if (values.help) return { name: 'help' };
    if (positionals.length !== 1)
      throw new UsageError(`"subagents threads import" takes one file, made by "subagents threads export ID --format json". ${HINT}`);
    return { name: 'threads import', ...place(values, cwd), file: resolve(cwd, positionals[0]!) };
  }
  if (action === 'revert') {
    const { values, positionals } = parse(rest, { ...PLACE_OPTIONS, 'dry-run': { type: 'boolean' }, yes: { type: 'boolean', short: 'y' } });
    if (values.help) return { name: 'help' };
    return {
      name: 'threads revert',
      ...place(values, cwd),
      runId: oneRun(positionals, 'threads revert'),
      dryRun: values['dry-run'] === true,
      yes: values.yes === true,
    };
  }
  if (action === 'apply' || action === 'discard') {
    const { values, positionals } = parse(rest, PLACE_OPTIONS);
    if (values.help) return { name: 'help' };
    return { name: `threads ${action}`, ...place(values, cwd), runId: oneRun(positionals, `threads ${action}`) };
  }
  throw new UsageError(
    `Unknown threads command "${action ?? ''}": use list, show, export, import, delete, revert, apply or discard. ${HINT}`,
  );
}

function profilesCommand(args: string[], cwd: string): Command {
  const [action, ...rest] = args;
  if (action !== 'list' && action !== 'validate')
    throw new UsageError(`Unknown profiles command "${action ?? ''}": use list or validate. ${HINT}`);
  const { values, positionals } = parse(rest, PLACE_OPTIONS);
  if (values.help) return { name: 'help' };
  if (positionals.length) throw new UsageError(`"subagents profiles ${action}" takes no arguments. ${HINT}`);
  return { name: `profiles ${action}`, ...place(values, cwd) };
}

/** Reads the command line (without node and the script); throws UsageError on anything wrong. */
export function parseCommandLine(argv: readonly string[], cwd: string): Command {
  const [command, ...rest] = argv;
  switch (command) {
    case undefined:
      throw new UsageError(`No command given.\n\n${USAGE}`);
    case 'help':
    case '-h':
    case '--help':
      return { name: 'help' };
    case 'run':
      return runCommand(rest, cwd);
    case 'threads':
      return threadsCommand(rest, cwd);
    case 'profiles':
      return profilesCommand(rest, cwd);
    case 'acp':
      return acpCommand(rest);
    default:
      throw new UsageError(`Unknown command "${command}": use run, acp, threads or profiles. ${HINT}`);
  }
}
