import { setProcessLauncherLog } from '../core/platform/processLauncher/sharedLauncher';
import { stopSandbox } from '../core/access/sandbox/commandLauncher';
import { locateRipgrep } from '../core/tools/search/ripgrep/locateRipgrep';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { terminalSafe } from './terminalText';
import { errorText } from '../shared/errorText';
import { Engine, EngineRequestError } from '../core/engine/engine';
import { nodeWorkspace } from '../core/engine/nodeWorkspace';
import type { EngineSettings } from '../core/config/settings/engineSettings';
import { SUPERVISOR } from '../core/config/settings/engineSettings';
import { createModelResolver } from '../core/models/createModelResolver';
import type { ApiKeyProvider, ModelResolverOptions } from '../core/models/createModelResolver';
import { ModelSpecError } from '../core/models/modelResolver';
import type { ModelResolver } from '../core/models/modelResolver';
import { keyOriginPolicy, userChosenSpecs } from '../core/models/keyOrigins';
import { KEY_VARIABLES } from '../core/models/keyVariables';
import { keyVariable, withTakenKeys } from '../core/access/secrets/processKeys';
import { Redactor } from '../core/access/secrets/redactor';
import { ScriptError } from '../core/models/scriptSchema';
import { threadSnapshots } from '../core/changes/attribution/threadSnapshots';
import { JsonlThreadStore } from '../core/storage/threads/jsonlThreadStore';
import { Worktrees } from '../core/changes/worktrees/worktrees';
import { isThreadId } from '../core/storage/threads/threadId';
import type { Command } from './cliArgs';
import { EXIT, UsageError } from './cliError';
import { readAll, stderrLogger } from './cliIo';
import type { CliIo } from './cliIo';
import { cliAcpConsent } from './cliAcpConsent';
import { cliMcpDeclarations, cliMcpHub } from './cliMcp';
import { mcpToolSource } from '../core/tools/mcp/runMcpTools';
import { profileMcpServers } from '../core/config/mcp/mcpDeclarations';
import { cliProfiles } from './cliProfiles';
import { findProfile } from '../core/config/profiles/findProfile';
import { describeProfileProblemAndEffect } from '../core/config/profiles/describeProfileProblem';
import { specsInUse } from '../core/config/modelUse/specsInUse';
import { eventPrinter } from './eventPrinter';
import { terminalApprover } from './terminalApprover';
import { terminalPrompt } from './terminalPrompt';
import { readWorkspaceSettings } from './workspaceSettings';
import { prepareStorage } from './defaultStorage';
import { readHooks } from '../core/config/hooks/readHooks';
import { hooksToRun } from '../core/access/hooks/hookConsent';

type RunCommand = Extract<Command, { name: 'run' }>;

function apiKey(provider: ApiKeyProvider): string | undefined {
  return keyVariable(KEY_VARIABLES[provider]) || undefined;
}

/** Checks the main model before anything runs, so a bad spec or a missing key is exit 2, not a failed run. */
function checkModel(spec: string, resolver: ModelResolver): void {
  try {
    // A malformed spec, or a vendor spec without its key, throws a ModelSpecError here.
    resolver.resolve(spec, { agent: SUPERVISOR, task: '' });
  } catch (error) {
    if (error instanceof ModelSpecError) throw new UsageError(error.message);
    throw error;
  }
}

async function checkWorkspace(dir: string): Promise<void> {
  const info = await stat(dir).catch(() => undefined);
  if (!info?.isDirectory())
    throw new UsageError(`The workspace "${dir}" is not a folder. Pass --workspace DIR, or run from the project folder.`);
}

/** `subagents run`: one request, run until its thread is quiet. */
export async function runCommand(cmd: RunCommand, io: CliIo): Promise<number> {
  await checkWorkspace(cmd.workspace);
  const logger = stderrLogger(io);
  setProcessLauncherLog((message) => logger.warn(message));
  const config = await readWorkspaceSettings(cmd.workspace, cmd.trust);
  for (const notice of config.notices) logger.warn(notice);
  const settings: EngineSettings = {
    ...config.settings,
    ...(cmd.model === undefined ? {} : { model: cmd.model }),
    ...(cmd.maxDepth === undefined ? {} : { maxDepth: cmd.maxDepth }),
  };
  if (!settings.model) {
    throw new UsageError(
      `No model is set: pass --model SPEC (e.g. --model scripted:demo.json) or set "subagents.model" in ${config.path}.`,
    );
  }
  const declared = cliMcpDeclarations(config, cmd.workspace);
  const profiles = cliProfiles(
    config,
    cmd.workspace,
    withTakenKeys(),
    declared.servers.map((s) => s.name),
  );
  const profileServers = [...profiles.profiles.values()].flatMap((profile) => profileMcpServers(profile));
  const notes = profiles.problems.filter((p) => p.severity === 'information').length;
  for (const p of profiles.problems) if (p.severity !== 'information') logger.warn(describeProfileProblemAndEffect(p, profiles.profiles));
  if (notes > 0)
    io.stderr.write(
      `subagents: ${notes} note${notes === 1 ? '' : 's'} on agent files (what they say that is not honoured here): run "subagents profiles validate" to read them.\n`,
    );
  if (cmd.agent !== undefined && cmd.agent !== SUPERVISOR && !findProfile(profiles.profiles, cmd.agent)) {
    throw new UsageError(`There is no enabled agent "${cmd.agent}". Available: ${[...profiles.profiles.keys()].join(', ') || '(none)'}.`);
  }
  const prompt = cmd.prompt === '-' ? (await readAll(io.stdin)).trim() : cmd.prompt;
  if (!prompt) throw new UsageError('The prompt read from stdin is empty: say what to do.');

  // SUBAGENTS_API_KEY goes only to a server the user named (--model) or allowed (--allow-key-for).
  const withheld = new Set<string>();
  const options: ModelResolverOptions = {
    workspaceRoot: cmd.workspace,
    apiKey,
    specs: specsInUse(settings, profiles),
    keyAllowed: keyOriginPolicy(
      userChosenSpecs({ spec: settings.model, byUser: cmd.model !== undefined }, profiles),
      cmd.trust.allowKeyFor,
    ),
    onKeyWithheld: (origin) => {
      if (withheld.has(origin)) return;
      withheld.add(origin);
      logger.warn(
        `${KEY_VARIABLES['openai-compatible']} was not sent to ${origin}: the workspace chose that server (${config.path} or an agent file), not you. ` +
          `Pass --allow-key-for ${origin} to send it there.`,
      );
    },
  };
  let first: ModelResolver | undefined;
  try {
    first = await createModelResolver(options);
  } catch (error) {
    if (error instanceof ScriptError || error instanceof ModelSpecError) throw new UsageError(error.message);
    throw error;
  }
  checkModel(settings.model, first);

  await prepareStorage(cmd.workspace, cmd.storage, logger);
  const store = new JsonlThreadStore({ dir: cmd.storage, recoverInterrupted: true, logger });
  if (cmd.thread !== undefined) {
    if (!isThreadId(cmd.thread)) throw new UsageError(`"${cmd.thread}" is not a thread id. See "subagents threads list".`);
    if (!(await store.get(cmd.thread)))
      throw new UsageError(`There is no thread "${cmd.thread}" in ${cmd.storage}. See "subagents threads list".`);
  }
  const terminal = terminalPrompt({ input: io.stdin, output: io.stderr });
  const acpConsent = cliAcpConsent(profiles, cmd.workspace, cmd.trust.allowAcp);
  const mcp = cliMcpHub(cmd.workspace, declared, cmd.trust.allowMcp, profileServers, logger, cmd.storage);
  const snapshots = threadSnapshots({ threadsDir: cmd.storage, store, maxMB: () => settings['snapshots.maxMB'], logger });
  const worktrees = new Worktrees(join(cmd.storage, 'worktrees'));
  // Worktrees of deleted threads, and ones a killed run left working, are dealt with first.
  await worktrees
    .cleanup(async (id) => (await store.get(id)) !== undefined)
    .then(({ refused }) => refused.forEach(({ reason }) => logger.warn(terminalSafe(reason))))
    .catch((error: unknown) => logger.warn(`Could not clean up old worktrees: ${errorText(error)}`));
  const engine = new Engine({
    // The keys left process.env at start-up (processKeys.ts): the redactor is given them.
    redactor: Redactor.fromEnvironment(withTakenKeys()),
    store,
    snapshots,
    worktrees,
    // The thread storage may be inside the workspace (the default): what it writes is no command's change.
    untracked: [cmd.storage],
    // The user named this folder on the command line: it is trusted. ask_user asks on the terminal.
    workspace: nodeWorkspace({
      root: cmd.workspace,
      ripgrep: locateRipgrep(),
      askUser: (question, signal) => terminal.ask(`\n${question}\n> `, signal),
    }),
    profiles: () => profiles,
    settings: () => settings,
    // The resolver made for the checks serves the first request; each later one gets a fresh one.
    createModelResolver: () => {
      const made = first ?? createModelResolver(options);
      first = undefined;
      return made;
    },
    logger,
    approver: terminalApprover({ prompt: terminal, output: io.stderr }),
    toolSources: [mcpToolSource(mcp)],
    acpConsent,
    modelOrigin: cmd.model !== undefined ? 'the --model flag' : `"subagents.model" in ${config.path}`,
    // The user's own hooks run as declared; the repository's only with --allow-hooks.
    hooks: () =>
      hooksToRun(
        readHooks(cmd.workspace, [{ value: config.hooks, scope: 'repository', source: `"subagents.hooks" in ${config.path}` }]),
        cmd.trust.allowHooks,
      ),
  });
  const printer = eventPrinter(io, cmd.json);
  engine.onEvent(printer.print);

  let interrupted = false;
  const onSigint = () => {
    if (interrupted) process.exit(EXIT.interrupted); // a second Ctrl+C: stop waiting
    interrupted = true;
    io.stderr.write('\nsubagents: cancelling every open run (Ctrl+C again to quit at once)…\n');
    engine.cancelAll();
  };
  process.on('SIGINT', onSigint);
  try {
    let sent;
    try {
      sent = await engine.send({
        prompt,
        ...(cmd.thread === undefined ? {} : { threadId: cmd.thread }),
        ...(cmd.agent === undefined ? {} : { agent: cmd.agent }),
      });
    } catch (error) {
      if (error instanceof EngineRequestError) throw new UsageError(error.message);
      throw error;
    }
    const finished = await sent.done;
    await engine.whenQuiet(sent.threadId);
    // subagents.threads.retention: the engine's pass after the turn would be cut short by the exit.
    await engine.pruneThreads();
    await store.closeAll();
    await snapshots.enforceCap();
    const last = printer.lastTopFinish(sent.threadId) ?? finished;
    printer.summary(sent.threadId, last);
    if (interrupted) return EXIT.interrupted;
    return last.status === 'ok' ? EXIT.ok : EXIT.runFailed;
  } finally {
    process.off('SIGINT', onSigint);
    // The spans still in the batch are sent before the process ends (nothing is waiting when traces are off).
    await engine.closeTraces();
    // No external agent kept for a child thread outlives the CLI (a later `--thread` loads its session where it can).
    await engine.externalAgents.closeAll();
    store.dispose();
    // No MCP server outlives the CLI: each is stopped, and what its process left is ended.
    const stopping = performance.now();
    await mcp.stopAll();
    logger.debug(`MCP servers stopped in ${Math.round(performance.now() - stopping)} ms.`);
    // Then the sandbox they and the commands ran in: its proxy and the sockets it made in the temp folder.
    await stopSandbox(logger);
  }
}
