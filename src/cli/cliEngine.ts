import { setProcessLauncherLog } from '../core/platform/processLauncher/sharedLauncher';
import { locateRipgrep } from '../core/tools/search/ripgrep/locateRipgrep';
import { join } from 'node:path';
import { terminalSafe } from './terminalText';
import { errorText } from '../shared/errorText';
import { Engine } from '../core/engine/engine';
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
import type { FileSnapshotStore } from '../core/changes/attribution/fileSnapshotStore';
import { JsonlThreadStore } from '../core/storage/threads/jsonlThreadStore';
import { Worktrees } from '../core/changes/worktrees/worktrees';
import type { TrustFlags } from './cliArgs';
import { UsageError } from './cliError';
import type { CliIo } from './cliIo';
import type { Approver, Logger } from '../core/ports';
import { cliAcpConsent } from './cliAcpConsent';
import { cliMcpDeclarations, cliMcpHub } from './cliMcp';
import { mcpToolSource } from '../core/tools/mcp/runMcpTools';
import { profileMcpServers } from '../core/config/mcp/mcpDeclarations';
import { cliProfiles } from './cliProfiles';
import type { ProfileSet } from '../core/config/profiles/profile';
import { describeProfileProblemAndEffect } from '../core/config/profiles/describeProfileProblem';
import { specsInUse } from '../core/config/modelUse/specsInUse';
import { readWorkspaceSettings } from './workspaceSettings';
import { prepareStorage } from './defaultStorage';
import { readHooks } from '../core/config/hooks/readHooks';
import { hooksToRun } from '../core/access/hooks/hookConsent';

/** What the headless engine is set up from: one workspace, the user's flags, and how it asks a person. */
export interface CliEngineOptions {
  workspace: string;
  storage: string;
  trust: TrustFlags;
  /** --model: overrides subagents.model. */
  model?: string;
  maxDepth?: number;
  io: CliIo;
  logger: Logger;
  approver: Approver;
  /** How ask_user reaches a person (the terminal for `run`); without it the question goes unanswered. */
  askUser?: (question: string, signal: AbortSignal) => Promise<string | undefined>;
  /** Checks that need the profiles, made before any model, storage or server is started (`run`'s --agent, its prompt). */
  beforeStart?: (profiles: ProfileSet) => Promise<void>;
}

/** An engine over one workspace, with what its host must finish and close. */
export interface CliEngine {
  engine: Engine;
  store: JsonlThreadStore;
  snapshots: FileSnapshotStore;
  profiles: ProfileSet;
  /** Sends the last spans, closes the thread store and stops every MCP server (not the sandbox: see stopSandbox). */
  close(): Promise<void>;
}

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

/**
 * The engine `subagents run` and `subagents acp` share: the workspace's settings with the flags
 * over them, its profiles, MCP servers, hooks and external agents under the --allow-* flags, the
 * keys of the environment, and the thread store. Bad configuration is a UsageError.
 */
export async function cliEngine(options: CliEngineOptions): Promise<CliEngine> {
  const { workspace, storage, trust, logger, io } = options;
  setProcessLauncherLog((message) => logger.warn(message));
  const config = await readWorkspaceSettings(workspace, trust);
  for (const notice of config.notices) logger.warn(notice);
  const settings: EngineSettings = {
    ...config.settings,
    ...(options.model === undefined ? {} : { model: options.model }),
    ...(options.maxDepth === undefined ? {} : { maxDepth: options.maxDepth }),
  };
  if (!settings.model) {
    throw new UsageError(
      `No model is set: pass --model SPEC (e.g. --model scripted:demo.json) or set "subagents.model" in ${config.path}.`,
    );
  }
  const declared = cliMcpDeclarations(config, workspace);
  const profiles = cliProfiles(
    config,
    workspace,
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
  await options.beforeStart?.(profiles);

  // SUBAGENTS_API_KEY goes only to a server the user named (--model) or allowed (--allow-key-for).
  const withheld = new Set<string>();
  const resolverOptions: ModelResolverOptions = {
    workspaceRoot: workspace,
    apiKey,
    specs: specsInUse(settings, profiles),
    keyAllowed: keyOriginPolicy(
      userChosenSpecs({ spec: settings.model, byUser: options.model !== undefined }, profiles),
      trust.allowKeyFor,
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
    first = await createModelResolver(resolverOptions);
  } catch (error) {
    if (error instanceof ScriptError || error instanceof ModelSpecError) throw new UsageError(error.message);
    throw error;
  }
  checkModel(settings.model, first);

  await prepareStorage(workspace, storage, logger);
  const store = new JsonlThreadStore({ dir: storage, recoverInterrupted: true, logger });
  const acpConsent = cliAcpConsent(profiles, workspace, trust.allowAcp);
  const mcp = cliMcpHub(workspace, declared, trust.allowMcp, profileServers, logger, storage);
  const snapshots = threadSnapshots({ threadsDir: storage, store, maxMB: () => settings['snapshots.maxMB'], logger });
  const worktrees = new Worktrees(join(storage, 'worktrees'));
  // Worktrees of deleted threads, and ones a killed run left working, are dealt with first.
  await worktrees
    .cleanup(async (id) => (await store.get(id)) !== undefined)
    .then(({ refused }) => refused.forEach(({ reason }) => logger.warn(terminalSafe(reason))))
    .catch((error: unknown) => logger.warn(`Could not clean up old worktrees: ${errorText(error)}`));
  const askUser = options.askUser;
  const engine = new Engine({
    // The keys left process.env at start-up (processKeys.ts): the redactor is given them.
    redactor: Redactor.fromEnvironment(withTakenKeys()),
    store,
    snapshots,
    worktrees,
    // The thread storage may be inside the workspace (the default): what it writes is no command's change.
    untracked: [storage],
    // The user named this folder (the command line, or the ACP client's session): it is trusted.
    workspace: nodeWorkspace({ root: workspace, ripgrep: locateRipgrep(), ...(askUser ? { askUser } : {}) }),
    profiles: () => profiles,
    settings: () => settings,
    // The resolver made for the checks serves the first request; each later one gets a fresh one.
    createModelResolver: () => {
      const made = first ?? createModelResolver(resolverOptions);
      first = undefined;
      return made;
    },
    logger,
    approver: options.approver,
    toolSources: [mcpToolSource(mcp)],
    acpConsent,
    modelOrigin: options.model !== undefined ? 'the --model flag' : `"subagents.model" in ${config.path}`,
    // The user's own hooks run as declared (in the sandbox, but with --user-hooks-outside-sandbox); the repository's only with --allow-hooks.
    hooks: () =>
      hooksToRun(
        readHooks(workspace, [{ value: config.hooks, scope: 'repository', source: `"subagents.hooks" in ${config.path}` }]),
        trust.allowHooks,
      ),
  });
  return {
    engine,
    store,
    snapshots,
    profiles,
    async close() {
      // The spans still in the batch are sent before the process ends (nothing is waiting when traces are off).
      await engine.closeTraces();
      // No external agent kept for a child thread outlives the CLI (a later `--thread` loads its session where it can).
      await engine.externalAgents.closeAll();
      store.dispose();
      // No MCP server outlives the CLI: each is stopped, and what its process left is ended.
      const stopping = performance.now();
      await mcp.stopAll();
      logger.debug(`MCP servers stopped in ${Math.round(performance.now() - stopping)} ms.`);
    },
  };
}
