import type { RunEvent, RunEventOf } from '../shared/events';
import { errorText } from '../shared/errorText';
import { launchRun } from './delegation/launchRun';
import { RunRegistry } from './delegation/runRegistry';
import type { Session } from './delegation/session';
import { SUPERVISOR, type EngineSettings } from './engineSettings';
import type { ModelResolver } from './models/modelResolver';
import { silentLogger, systemClock, type Approver, type Clock, type Logger, type Workspace } from './ports';
import type { Profile, ProfileSet } from './profiles/profile';
import { newThreadId } from './threads/newThreadId';
import { threadHistory } from './threads/threadHistory';
import type { ThreadStore } from './threads/threadStore';
import { titleOf } from './threads/threadIndex';

export type { EngineSettings } from './engineSettings';

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
  /** Decides what needs the user's approval; without one, all of it is denied. */
  approver?: Approver;
}

export interface SendRequest {
  /** Continue this thread; a new thread when absent. */
  threadId?: string;
  prompt: string;
  /** The profile that answers; the supervisor when absent. */
  agent?: string;
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

  constructor(private readonly options: EngineOptions) {
    this.clock = options.clock ?? systemClock;
    this.logger = options.logger ?? silentLogger;
  }

  /** Every event of every thread, stamped, in the order written. Returns the unsubscribe. */
  onEvent(listener: (event: RunEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async send(request: SendRequest): Promise<SendResult> {
    const prompt = request.prompt.trim();
    if (!prompt) throw new EngineRequestError('The prompt is empty: say what you want done.');
    const profiles = this.options.profiles();
    const profile = this.topProfile(request.agent, profiles);
    const threadId = request.threadId ?? newThreadId();
    const busy = this.registry.activeIn(threadId);
    if (busy.length > 0) {
      throw new EngineRequestError(`This thread is still working (run ${busy[0]!.runId}). Wait for it to finish, or cancel it first.`);
    }
    const loaded = await this.options.store.open({ id: threadId, title: titleOf(prompt), parentThreadId: null, agent: profile.name });
    if (loaded.meta.parentThreadId !== null) {
      throw new EngineRequestError(`Thread ${threadId} is a subagent's thread; open its top-level thread to continue the conversation.`);
    }
    const session: Session = {
      store: this.options.store,
      registry: this.registry,
      resolver: await this.options.createModelResolver(),
      settings: this.options.settings(),
      profiles,
      clock: this.clock,
      logger: this.logger,
      workspace: this.options.workspace,
      approver: this.options.approver,
      publish: (event) => this.publish(event),
    };
    const run = launchRun(session, {
      threadId,
      rootThreadId: threadId,
      parent: null,
      profile,
      task: prompt,
      prompt,
      history: threadHistory(threadId, loaded.events),
    });
    // run.finished is written after at least one await inside the run, so this listener sees it.
    const done = new Promise<RunEventOf<'run.finished'>>((resolve, reject) => {
      const off = this.onEvent((e) => {
        if (e.kind === 'run.finished' && e.runId === run.runId) {
          off();
          resolve(e);
        }
      });
      run.done.catch((error: unknown) => {
        off();
        reject(error);
      });
    });
    return { threadId, runId: run.runId, done };
  }

  /** Cancels every run of the thread and of its child threads. */
  cancel(threadId: string): void {
    for (const run of this.registry.activeIn(threadId)) if (run.parent === null) run.controller.abort(new Error('cancelled'));
  }

  /** Cancels every run of every thread (shutdown, Ctrl+C). */
  cancelAll(): void {
    for (const run of this.registry.all()) if (run.parent === null) run.controller.abort(new Error('cancelled'));
  }

  isBusy(threadId: string): boolean {
    return this.registry.activeIn(threadId).length > 0;
  }

  /** Resolves when no run of the thread (or its child threads) is active. */
  async whenQuiet(threadId: string): Promise<void> {
    await this.registry.whenIdle(threadId);
    await this.options.store.flush();
  }

  private publish(event: RunEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (error) {
        this.logger.error(`An event listener failed: ${errorText(error)}`);
      }
    }
  }

  private topProfile(agent: string | undefined, profiles: ProfileSet): Profile {
    if (agent === undefined || agent === SUPERVISOR) {
      return { name: SUPERVISOR, description: 'Answers the user and delegates to subagents.', instructions: '', source: 'built-in' };
    }
    const profile = profiles.profiles.get(agent);
    if (!profile) {
      const names = [...profiles.profiles.keys()].join(', ') || '(none)';
      throw new EngineRequestError(`There is no enabled agent "${agent}". Available agents: ${names}.`);
    }
    return profile;
  }
}
