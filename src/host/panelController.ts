import type { Engine } from '../core/engine';
import type { Logger } from '../core/ports';
import type { PromptQueue, QueueChange } from '../core/requests/promptQueue';
import { newThreadId } from '../core/threads/newThreadId';
import type { ThreadStore } from '../core/threads/threadStore';
import { errorText } from '../shared/errorText';
import type { ApprovalDecision } from '../shared/events';
import { oneLine } from '../shared/oneLine';
import { webviewToHostSchema, type HostToWebview, type PanelConfig, type ProblemLocation, type QueuedPromptView, type ThreadSummary, type WebviewToHost } from '../shared/protocol';
import type { ModelChoiceList } from './modelChooser';
import { ThreadFeed } from './threadFeed';

/** Where the controller remembers the open thread across window reloads (workspaceState). */
export interface ThreadMemory {
  get(): string | undefined;
  set(threadId: string | undefined): PromiseLike<void>;
}

export interface PanelControllerDeps {
  engine: Pick<Engine, 'onEvent' | 'cancel'>;
  store: ThreadStore;
  /** Sends the user's prompts, now or once their thread is quiet: the rule every UI shares. */
  queue: PromptQueue;
  memory: ThreadMemory;
  config: () => PanelConfig;
  logger: Logger;
  /** Where the panel's Approve once / Deny answers go (the engine's approver). */
  approvals?: { resolve(approvalId: string, decision: ApprovalDecision): boolean };
  /** First run: the models the user may pick, and carrying out a pick (see ModelChooser). */
  models?: { list(): Promise<ModelChoiceList>; choose(id: string): Promise<string | undefined> };
  /** Opens where a configuration problem is fixed (it checks the place itself). */
  openLocation?: (location: ProblemLocation) => Promise<void>;
  /** Told when the open thread starts or stops working (the view's Stop button). */
  onBusyChange?: (busy: boolean) => void;
  batchIntervalMs?: number;
}

/**
 * The host side of the panel: validates what the webview sends, hands prompts to the queue, and
 * streams the open thread's events back in batches. Knows the webview only as a `post` function
 * and the editor not at all, so it is tested with plain fakes.
 */
export class PanelController {
  private post: ((message: HostToWebview) => void) | undefined;
  private busy = false;
  private readonly feed: ThreadFeed;
  private readonly unsubscribe: () => void;

  constructor(private readonly deps: PanelControllerDeps) {
    this.feed = new ThreadFeed({
      engine: deps.engine,
      store: deps.store,
      batchIntervalMs: deps.batchIntervalMs,
      flush: (threadId, events) => {
        this.send({ type: 'events', threadId, events });
        this.refreshBusy();
      },
    });
    // The remembered thread is followed from the start; its snapshot loads when the webview is ready.
    const remembered = deps.memory.get();
    if (remembered) this.feed.follow(remembered);
    this.unsubscribe = deps.queue.onChange((change) => this.onQueueChange(change));
  }

  private get threadId(): string | undefined {
    return this.feed.current;
  }

  /** The webview (re)appeared; it will say `ready` when its script runs. */
  attach(post: (message: HostToWebview) => void): void {
    this.post = post;
  }

  detach(): void {
    this.post = undefined;
    this.feed.clear();
  }

  /** A message from the webview: anything that is not a valid WebviewToHost is dropped and logged. */
  async receive(raw: unknown): Promise<void> {
    const parsed = webviewToHostSchema.safeParse(raw);
    if (!parsed.success) {
      this.deps.logger.warn(`Dropped an invalid message from the panel: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`);
      return;
    }
    try {
      await this.dispatch(parsed.data);
    } catch (error) {
      const message = errorText(error);
      this.deps.logger.error(`Panel request "${parsed.data.type}" failed: ${message}`);
      this.send({ type: 'notice', level: 'error', message, ...(this.threadId ? { threadId: this.threadId } : {}) });
    }
  }

  async newThread(): Promise<void> {
    await this.open(undefined);
  }

  cancel(): void {
    if (this.threadId) this.deps.engine.cancel(this.threadId);
  }

  /** Settings or profiles changed: the panel shows the new configuration. */
  configChanged(): void {
    this.send({ type: 'config', config: this.deps.config() });
  }

  dispose(): void {
    this.unsubscribe();
    this.feed.dispose();
  }

  private async dispatch(message: WebviewToHost): Promise<void> {
    switch (message.type) {
      case 'ready':
        return this.sendState();
      case 'send':
        return this.sendPrompt(message.text);
      case 'unqueue':
        // Already sent (or never queued): the queue message that follows shows what is left.
        if (this.threadId) this.deps.queue.remove(this.threadId, message.id);
        return;
      case 'cancel':
        return this.cancel();
      case 'newThread':
        return this.newThread();
      case 'openThread': {
        const exists = await this.deps.store.get(message.threadId);
        if (!exists || exists.meta.parentThreadId !== null) throw new Error('That conversation is no longer there; it may have been deleted.');
        return this.open(message.threadId);
      }
      case 'resolveApproval':
        // Only a request that is still waiting can be answered; a stale id never reaches another call.
        if (!this.deps.approvals?.resolve(message.approvalId, message.decision)) {
          throw new Error('That approval is no longer waiting: its run has already moved on.');
        }
        return;
      case 'listModels':
        return this.listModels();
      case 'chooseModel':
        return this.chooseModel(message.id);
      case 'openLocation':
        if (!this.deps.openLocation) throw new Error('Opening files from the panel is not available here.');
        return this.deps.openLocation(message.location);
      case 'attach':
      case 'detach':
      case 'insertAtCursor':
      case 'renameThread':
      case 'deleteThread':
      case 'alwaysAllow':
      case 'cancelRun':
      case 'steerRun':
        // The protocol is ahead of the host: said, not dropped.
        throw new Error(`"${message.type}" is not available in this version yet.`);
    }
  }

  private async listModels(): Promise<void> {
    if (!this.deps.models) throw new Error('Choosing a model here is not available; set "subagents.model" in your settings.');
    this.send({ type: 'modelChoices', ...(await this.deps.models.list()) });
  }

  private async chooseModel(id: string): Promise<void> {
    if (!this.deps.models) throw new Error('Choosing a model here is not available; set "subagents.model" in your settings.');
    const spec = await this.deps.models.choose(id);
    // The new setting reaches the panel as a config message (the host watches the settings).
    if (spec) this.send({ type: 'notice', level: 'info', message: `The model is now ${spec} (saved as "subagents.model" in your user settings).` });
  }

  private async sendPrompt(text: string): Promise<void> {
    let threadId = this.threadId;
    if (!threadId) {
      // Chosen here so the first events of the new thread are recognised as ours.
      threadId = newThreadId();
      this.feed.follow(threadId);
      await this.deps.memory.set(threadId);
    }
    this.deps.queue.submit({ threadId, prompt: text });
  }

  private onQueueChange(change: QueueChange): void {
    if (change.threadId !== this.threadId) return;
    if (change.kind === 'sent') {
      void this.sendThreads();
      // The run's end shows at once, not a batch interval later.
      void change.result.done.finally(() => this.feed.flushNow()).catch(() => undefined);
    } else if (change.kind === 'refused') {
      const reason = errorText(change.error);
      this.deps.logger.error(`A message was not sent: ${reason}`);
      this.send({ type: 'notice', level: 'error', message: `Your message "${oneLine(change.item.prompt, 60)}" was not sent: ${reason}`, threadId: change.threadId });
    }
    if (change.kind !== 'sent') this.send({ type: 'queued', threadId: change.threadId, queued: this.queuedView(change.threadId) });
    this.refreshBusy();
  }

  private async open(threadId: string | undefined): Promise<void> {
    await this.deps.memory.set(threadId);
    await this.sendState(threadId);
  }

  private async sendState(threadId = this.threadId): Promise<void> {
    // Read before the snapshot: nothing may wait between the snapshot and its post (see ThreadFeed).
    const threads = await this.threadSummaries();
    await this.feed.load(threadId, (loaded) => {
      if (threadId && !loaded) {
        this.deps.logger.warn(`The remembered thread ${threadId} is gone; starting a new one.`);
        void this.deps.memory.set(undefined);
      }
      for (const w of loaded?.warnings ?? []) this.deps.logger.warn(w);
      const shown = loaded ? threadId : undefined;
      this.busy = shown ? this.deps.queue.isBusy(shown) : false;
      this.send({
        type: 'state',
        threadId: shown ?? null,
        events: loaded?.events ?? [],
        threads,
        config: this.deps.config(),
        busy: this.busy,
        queued: shown ? this.queuedView(shown) : [],
      });
    });
  }

  private queuedView(threadId: string): QueuedPromptView[] {
    return this.deps.queue.queued(threadId).map((q) => ({ id: q.id, text: q.prompt }));
  }

  private refreshBusy(): void {
    const busy = this.threadId ? this.deps.queue.isBusy(this.threadId) : false;
    if (busy === this.busy) return;
    this.busy = busy;
    this.send({ type: 'busy', busy });
    this.deps.onBusyChange?.(busy);
  }

  private async sendThreads(): Promise<void> {
    this.send({ type: 'threads', threads: await this.threadSummaries() });
  }

  private async threadSummaries(): Promise<ThreadSummary[]> {
    const all = await this.deps.store.list();
    return all.filter((t) => t.parentThreadId === null).map((t) => ({ id: t.id, title: t.title, updatedAt: t.updatedAt }));
  }

  private send(message: HostToWebview): void {
    this.post?.(message);
  }
}
