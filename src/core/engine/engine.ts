import type { AcpConsent } from '../config/acp/acpConsentKey';
import type { RunEvent, RunEventOf } from '../../shared/events';
import { errorText } from '../../shared/errorText';
import { FileChanges } from '../changes/attribution/fileChanges';
import { MemorySnapshotStore, type SnapshotStore } from '../changes/attribution/snapshotStore';
import { loadConversationHistory } from '../run/delegation/conversationHistory';
import { launchRun } from '../run/delegation/launchRun';
import { modelAllowed, modelRefusedText } from '../models/allowedModels';
import { steerRun } from '../run/steering/steerRun';
import type { RunHandle } from '../run/delegation/runHandle';
import { RunRegistry } from '../run/delegation/runRegistry';
import { NO_MODEL } from '../run/delegation/runTurns';
import type { Session } from '../run/delegation/session';
import { WorkLimiter } from '../run/delegation/workLimiter';
import { DEFAULT_SETTINGS, type EngineSettings } from '../config/settings/engineSettings';
import type { RunToolSource } from '../tools/runToolSource';
import type { ModelResolver } from '../models/modelResolver';
import {
  silentLogger,
  WindowClosing,
  systemClock,
  systemSchedule,
  type Approver,
  type Clock,
  type Logger,
  type Schedule,
  type Workspace,
} from '../ports';
import type { ProfileSet } from '../config/profiles/profile';
import { redactingLogger } from '../access/secrets/redactEvents';
import { ThreadPruner } from '../storage/retention/threadPruner';
import { Redactor } from '../access/secrets/redactor';
import { newThreadId } from '../storage/threads/newThreadId';
import type { Worktrees } from '../changes/worktrees/worktrees';
import { ThreadBusyError } from '../storage/threads/threadLeases';
import type { LoadedThread, ThreadStore } from '../storage/threads/threadStore';
import { distinctTitle } from '../storage/threads/distinctTitle';
import { titleOf } from '../storage/threads/threadIndex';
import { HookRunner, type SessionHooks } from '../access/hooks/hookRunner';
import type { HooksToRun } from '../access/hooks/hookConsent';
import { narrowedProfile, slashCommandTurn } from './requests/slashCommand';
import { topProfile } from './requests/topProfile';
import { EngineTraces } from '../run/telemetry/loadTracing';
import { AcpSessions } from '../run/external/acpSessions';

export type { EngineSettings } from '../config/settings/engineSettings';

export interface EngineOptions {
  store: ThreadStore;
  workspace: Workspace;
  /** Read at the start of every request, so edits apply to the next one without a reload. */
  profiles: () => ProfileSet;
  settings: () => EngineSettings;
  /** One resolver per request: a scripted model replays from its start for each user message. */
  createModelResolver: () => ModelResolver | Promise<ModelResolver>;
  logger?: Logger;
  clock?: Clock;
  /** Timers of the runs (timeouts, stall warnings, idle timeouts); injected where tests must not wait. */
  schedule?: Schedule;
  /** Decides what needs the user's approval; without one, all of it is denied. */
  approver?: Approver;
  /** The secrets to keep out of events, threads, logs and tool results (default: this process's environment). */
  redactor?: Redactor;
  /**
   * Tools from outside the engine that runs may use: the MCP servers (mcpToolSource; the host owns
   * the hub and stops it, McpHub.stopAll, when it closes) and, in the editor, the editor's tools.
   */
  toolSources?: readonly RunToolSource[];
  /** Where the contents behind reverts and diffs are kept (default: in memory, gone with the process). */
  snapshots?: SnapshotStore;
  /**
   * The thread storage: its changes are never a command's, and sandboxed commands cannot write in
   * it (with the worktrees root), so nothing the product later acts on is theirs to forge.
   */
  untracked?: readonly string[];
  /** Where runs of `isolation: "worktree"` profiles get their worktrees (beside the threads); without it such a profile is refused. */
  worktrees?: Worktrees;
  /**
   * Where `settings().model` came from, in words, for the run.config of a run that uses it (the
   * CLI's "the --model flag"); default: "subagents.model" (the model in your settings).
   */
  modelOrigin?: string;
  /**
   * The hooks each request runs (read at its start, so edits apply to the next): the user's, and the
   * repository's only when the user agreed (access/hooks/hookConsent.ts), with notices about the rest.
   */
  hooks?: () => HooksToRun | Promise<HooksToRun>;
  /** How workspace-declared ACP agents get the user's consent (the CLI's --allow-acp NAME, the extension's remembered answers); user-declared ones need none. */
  acpConsent?: AcpConsent;
}

/** Where a request's own model came from (SendRequest.model). */
const REQUEST_MODEL_ORIGIN = 'the model picked for this request';

export interface SendRequest {
  /** Continue this thread; a new thread when absent. */
  threadId?: string;
  /**
   * Without `threadId`: the id the new thread takes, chosen by the host beforehand (an ACP
   * session's id, which names its thread before the first prompt); a fresh one when absent.
   */
  newThreadId?: string;
  prompt: string;
  /** The profile that answers; the supervisor when absent. */
  agent?: string;
  /**
   * The model for this request in place of `subagents.model` (the one a user picked in Copilot
   * Chat): every run without a model of its own uses it.
   */
  model?: string;
}

export interface SendResult {
  threadId: string;
  runId: string;
  /** The top run's end. Background work of the request may go on: see whenQuiet. */
  done: Promise<RunEventOf<'run.finished'>>;
}

/** A request that cannot start, with a message that says why and what to do. */
export class EngineRequestError extends Error {
  override readonly name = 'EngineRequestError';
}

/**
 * The engine: takes user requests, runs the supervisor and the subagents it delegates to, and
 * reports everything as RunEvents, which it also writes to the thread store. Knows no editor.
 */
export class Engine {
  private readonly registry = new RunRegistry();
  private readonly listeners = new Set<(event: RunEvent) => void>();
  private readonly clock: Clock;
  private readonly logger: Logger;
  /** One limit on the subagents working at once, for every request and thread of this engine. */
  private readonly limiter: WorkLimiter;

  private readonly redactor: Redactor;
  /** subagents.threads.retention, applied at start-up and after each turn. */
  private readonly pruner: ThreadPruner;
  /** Every run's file changes, one journal for the conflict guard (src/core/changes/attribution/). */
  readonly changes: FileChanges;
  private readonly traces: EngineTraces;
  /** The external agents (ACP) kept for their child threads' next runs: the hosts end them (closeAll) when the window closes or the CLI exits. */
  readonly externalAgents = new AcpSessions();

  constructor(private readonly options: EngineOptions) {
    const snapshots = options.snapshots ?? new MemorySnapshotStore();
    this.changes = new FileChanges(snapshots, options.untracked ?? []);
    this.clock = options.clock ?? systemClock;
    this.redactor = options.redactor ?? Redactor.fromEnvironment(process.env);
    this.logger = redactingLogger(options.logger ?? silentLogger, this.redactor);
    this.limiter = new WorkLimiter(DEFAULT_SETTINGS.maxConcurrency, this.logger);
    this.traces = new EngineTraces(this.redactor, this.logger);
    this.pruner = new ThreadPruner({
      store: options.store,
      retention: () => options.settings()['threads.retention'],
      isBusy: (id) => this.registry.isBusy(id),
      clock: this.clock,
      logger: this.logger,
      afterDelete: () => snapshots.dropUnreferenced(),
    });
    void this.pruneThreads();
  }

  /** What sandboxed commands may never write: the thread storage and the worktrees root (the sandbox policy's `readOnly`). */
  private readOnlyToCommands(): string[] {
    return [...(this.options.untracked ?? []), ...(this.options.worktrees ? [this.options.worktrees.dir] : [])];
  }

  /**
   * Deletes the threads `subagents.threads.retention` lets go (never one that works, here or in
   * another window); resolves with how many. Runs at start-up and after each turn by itself.
   */
  pruneThreads(): Promise<number> {
    return this.pruner.prune();
  }

  /** Every event of every thread, stamped, in the order written. Returns the unsubscribe. */
  onEvent(listener: (event: RunEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Starts a request. The thread is taken before the first await, so a second request on it (a
   * double Enter) is refused even in the same tick. A request that cannot start (no model, a
   * broken script) rejects with an EngineRequestError and leaves no thread behind.
   */
  async send(request: SendRequest): Promise<SendResult> {
    const typed = request.prompt.trim();
    if (!typed) throw new EngineRequestError('The prompt is empty: say what you want done.');
    const profiles = this.options.profiles();
    const configured = this.options.settings();
    // `/name args` runs a prompt file: its text is sent, and its front matter picks the agent, the model and (narrowing) the tools.
    const turn = slashCommandTurn(typed, profiles.commands ?? [], configured.modelAliases);
    if (turn?.kind === 'refused') throw new EngineRequestError(turn.error);
    const prompt = turn?.prompt ?? (typed.startsWith('//') ? typed.slice(1) : typed);
    const top = topProfile(request.agent ?? turn?.agent, profiles);
    if ('error' in top) throw new EngineRequestError(top.error);
    const profile = narrowedProfile(top, turn?.tools);
    const model = turn?.model ?? request.model;
    const settings = model ? { ...configured, model } : configured;
    const spec = profile.model ?? settings.model;
    if (!spec) throw new EngineRequestError(NO_MODEL);
    if (!modelAllowed(spec, settings.allowedModels))
      throw new EngineRequestError(modelRefusedText(profile.name, spec, settings.allowedModels));
    const threadId = request.threadId ?? request.newThreadId ?? newThreadId();
    if (this.registry.isBusy(threadId)) throw new EngineRequestError(BUSY);
    const reservation = this.registry.reserve(threadId);
    try {
      const resolver = await this.resolver();
      const tracing = await this.traces.forSettings(settings);
      // Only a new thread takes this title; one that exists keeps its own.
      const others = (await this.options.store.list()).filter((t) => t.parentThreadId === null && t.id !== threadId);
      // The thread is titled by what the user typed (`/review src/x.ts`, not its expansion).
      const title = distinctTitle(
        titleOf(typed),
        others.map((t) => t.title),
      );
      const loaded = await this.openThread(
        { id: threadId, title, firstPrompt: titleOf(typed), parentThreadId: null, agent: profile.name },
        { newId: request.threadId === undefined },
      );
      if (loaded.meta.parentThreadId !== null) {
        await this.options.store.close(threadId);
        throw new EngineRequestError("That conversation is a subagent's thread; open its top-level conversation to continue it.");
      }
      const history = await loadConversationHistory(this.options.store, threadId, loaded);
      this.limiter.concurrency = settings.maxConcurrency;
      const session: Session = {
        store: this.options.store,
        registry: this.registry,
        limiter: this.limiter,
        resolver,
        settings,
        profiles,
        clock: this.clock,
        schedule: this.options.schedule ?? systemSchedule,
        logger: this.logger,
        workspace: this.options.workspace,
        approver: this.options.approver,
        redactor: this.redactor,
        toolSources: this.options.toolSources,
        changes: this.changes,
        readOnlyToCommands: this.readOnlyToCommands(),
        ...(this.options.worktrees ? { worktrees: this.options.worktrees } : {}),
        ...(tracing ? { tracing } : {}),
        publish: (event) => (this.publish(event), tracing?.observe(event)),
        ...(this.options.acpConsent ? { acpConsent: this.options.acpConsent } : {}),
        acpSessions: this.externalAgents,
        ...(await this.sessionHooks()),
        ...(turn?.model
          ? { modelOrigin: `the model of ${turn.command.source}` }
          : request.model
            ? { modelOrigin: REQUEST_MODEL_ORIGIN }
            : this.options.modelOrigin
              ? { modelOrigin: this.options.modelOrigin }
              : {}),
      };
      const run = launchRun(session, {
        threadId,
        rootThreadId: threadId,
        parent: null,
        profile,
        task: prompt,
        prompt,
        history,
      });
      // Stop was pressed while the request was starting: the run it started stops at once.
      if (reservation.cancelled) run.cancel();
      const done = this.finishedEvent(run);
      done.then(
        () => this.pruneThreads(),
        () => {},
      );
      return { threadId, runId: run.runId, done };
    } finally {
      reservation.release();
    }
  }

  /** The request's hooks, when it has any (or something to say about them). */
  private async sessionHooks(): Promise<{ hooks?: SessionHooks }> {
    const declared = await this.options.hooks?.();
    if (!declared || (declared.hooks.length === 0 && declared.notices.length === 0)) return {};
    const runner = new HookRunner(declared.hooks, this.options.workspace.root);
    return { hooks: { runner, notices: [...declared.notices, ...runner.problems] } };
  }

  /** Opens the thread for this request's runs; another window working in it refuses the request. */
  private async openThread(...args: Parameters<ThreadStore['open']>): Promise<LoadedThread> {
    try {
      return await this.options.store.open(...args);
    } catch (error) {
      if (error instanceof ThreadBusyError) throw new EngineRequestError(error.message);
      throw error;
    }
  }

  /** Cancels every run of the thread and of its child threads (and a request still starting). */
  cancel(threadId: string): void {
    this.registry.cancelReserved(threadId);
    for (const run of this.registry.activeIn(threadId)) if (run.parent === null) run.cancel();
  }

  /**
   * Stops one working run and everything under it (the Stop on its node); its parent is not
   * stopped and gets its partial result, told that the user stopped it. A top-level run stops its
   * whole request, as Stop on the thread does. `rootThreadId` keeps a UI to the thread it shows.
   */
  cancelRun(runId: string, rootThreadId?: string): void {
    const run = this.activeRun(runId, rootThreadId);
    if (run.parent === null) this.cancel(run.rootThreadId);
    else run.stop('user');
  }

  /** A message from the user to a working run, seen before its next model call (the steer box on its node). */
  steerRun(runId: string, text: string, rootThreadId?: string): void {
    const message = text.trim();
    if (!message) throw new EngineRequestError('The message is empty: say what the agent should know or do.');
    const refused = steerRun(this.activeRun(runId, rootThreadId), 'user', message);
    if (refused) throw new EngineRequestError(refused);
  }

  private activeRun(runId: string, rootThreadId: string | undefined): RunHandle {
    const run = this.registry.get(runId);
    if (!run || (rootThreadId !== undefined && run.rootThreadId !== rootThreadId)) {
      throw new EngineRequestError(
        'That run is not working any more (it has finished, or belongs to another conversation), so there is nothing to stop or tell.',
      );
    }
    return run;
  }

  /** Cancels every run of every thread (shutdown, Ctrl+C); `closing`: the window closes or reloads. */
  cancelAll(why: 'stopped' | 'closing' = 'stopped'): void {
    this.registry.cancelReserved();
    for (const run of this.registry.all()) if (run.parent === null) run.cancel(why === 'closing' ? new WindowClosing() : undefined);
  }

  /** A run of the thread (or its child threads) is working, or a request on it is starting. */
  isBusy(threadId: string): boolean {
    return this.registry.isBusy(threadId);
  }

  /** Resolves when no run of the thread (or its child threads) is active, and its events are stored. */
  async whenQuiet(threadId: string): Promise<void> {
    await this.registry.whenIdle(threadId);
    // Not the index: it is a cache of the threads, written coalesced (a crash before it loses nothing).
    await this.options.store.flushThreads();
  }

  /** Sends the spans still waiting to the collector and stops tracing (the CLI's exit, the window's close). */
  closeTraces(): Promise<void> {
    return this.traces.close();
  }

  /** The model resolver for one request; one that cannot be made refuses the request. */
  private async resolver(): Promise<ModelResolver> {
    try {
      return await this.options.createModelResolver();
    } catch (error) {
      throw new EngineRequestError(errorText(error), { cause: error });
    }
  }

  /**
   * The top run's run.finished as written. The run always ends; when its end could not be
   * written (the store failed), this rejects with why, rather than waiting forever.
   */
  private finishedEvent(run: RunHandle): Promise<RunEventOf<'run.finished'>> {
    return new Promise((resolve, reject) => {
      const off = this.onEvent((e) => {
        if (e.kind === 'run.finished' && e.runId === run.runId) {
          off();
          resolve(e);
        }
      });
      // Written or not, the run has ended here: a written run.finished has already resolved this.
      void run.done.then((result) => {
        off();
        reject(new Error(result.error ?? 'The run ended, but its end could not be written to its thread.'));
      });
    });
  }

  /** Tells every listener of an event: a run's, or one written outside any run (run.reverted, by RunChangeActions). */
  publish(event: RunEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (error) {
        this.logger.error(`An event listener failed: ${errorText(error)}`);
      }
    }
  }
}

const BUSY = 'This conversation is still working. Wait for it to finish, or stop it first.';
