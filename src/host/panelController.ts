import type { Engine } from '../core/engine';
import type { Logger } from '../core/ports';
import { newThreadId } from '../core/threads/newThreadId';
import type { ThreadStore } from '../core/threads/threadStore';
import type { ApprovalDecision, RunEvent } from '../shared/events';
import { webviewToHostSchema, type HostToWebview, type PanelConfig, type ThreadSummary, type WebviewToHost } from '../shared/protocol';
import { EventBatcher } from './eventBatcher';
import type { ModelChoiceList } from './modelChooser';

/** Where the controller remembers the open thread across window reloads (workspaceState). */
export interface ThreadMemory {
  get(): string | undefined;
  set(threadId: string | undefined): PromiseLike<void>;
}

export interface PanelControllerDeps {
  engine: Engine;
  store: ThreadStore;
  memory: ThreadMemory;
  config: () => PanelConfig;
  logger: Logger;
  /** Where the panel's Approve once / Deny answers go (the engine's approver). */
  approvals?: { resolve(approvalId: string, decision: ApprovalDecision): boolean };
  /** First run: the models the user may pick, and carrying out a pick (see ModelChooser). */
  models?: { list(): Promise<ModelChoiceList>; choose(id: string): Promise<string | undefined> };
  /** Told when the open thread starts or stops working (the view's Stop button). */
  onBusyChange?: (busy: boolean) => void;
  batchIntervalMs?: number;
}

/**
 * The host side of the panel: validates what the webview sends, drives the engine, and streams
 * the open thread's events back in batches. Knows the webview only as a `post` function and the
 * editor not at all, so it is tested with plain fakes.
 */
export class PanelController {
  private post: ((message: HostToWebview) => void) | undefined;
  private threadId: string | undefined;
  /** The open thread and the child threads under it: the events the webview folds. */
  private family = new Set<string>();
  private busy = false;
  private readonly batcher: EventBatcher;
  private readonly unsubscribe: () => void;

  constructor(private readonly deps: PanelControllerDeps) {
    this.threadId = deps.memory.get();
    this.batcher = new EventBatcher({
      intervalMs: deps.batchIntervalMs,
      flush: (events) => {
        if (this.threadId) this.send({ type: 'events', threadId: this.threadId, events });
        this.refreshBusy();
      },
    });
    this.unsubscribe = deps.engine.onEvent((e) => this.onEngineEvent(e));
  }

  /** The webview (re)appeared; it will say `ready` when its script runs. */
  attach(post: (message: HostToWebview) => void): void {
    this.post = post;
  }

  detach(): void {
    this.post = undefined;
    this.batcher.clear();
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
      const message = error instanceof Error ? error.message : String(error);
      this.deps.logger.error(`Panel request "${parsed.data.type}" failed: ${message}`);
      this.send({ type: 'notice', level: 'error', message });
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
    this.batcher.dispose();
  }

  private async dispatch(message: WebviewToHost): Promise<void> {
    switch (message.type) {
      case 'ready':
        return this.sendState();
      case 'send':
        return this.sendPrompt(message.text);
      case 'cancel':
        return this.cancel();
      case 'newThread':
        return this.newThread();
      case 'openThread': {
        const exists = await this.deps.store.get(message.threadId);
        if (!exists || exists.meta.parentThreadId !== null) throw new Error(`There is no conversation ${message.threadId}; it may have been deleted.`);
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
    if (!this.threadId) {
      // Choose the id here so the first events of the new thread are recognised as ours.
      this.threadId = newThreadId();
      this.family = new Set([this.threadId]);
      await this.deps.memory.set(this.threadId);
    }
    const { done } = await this.deps.engine.send({ threadId: this.threadId, prompt: text });
    this.refreshBusy();
    void this.sendThreads();
    void done.finally(() => {
      this.batcher.flushNow();
      this.refreshBusy();
    });
  }

  private async open(threadId: string | undefined): Promise<void> {
    this.batcher.clear();
    this.threadId = threadId;
    await this.deps.memory.set(threadId);
    await this.sendState();
  }

  private async sendState(): Promise<void> {
    let events: RunEvent[] = [];
    if (this.threadId) {
      const loaded = await this.deps.store.getFamily(this.threadId);
      if (!loaded) {
        this.deps.logger.warn(`The remembered thread ${this.threadId} is gone; starting a new one.`);
        this.threadId = undefined;
        await this.deps.memory.set(undefined);
      } else {
        events = loaded.events;
        for (const w of loaded.warnings) this.deps.logger.warn(w);
      }
    }
    this.family = new Set(this.threadId ? [this.threadId, ...events.map((e) => e.threadId)] : []);
    // Events already in `events` must not arrive again in a batch.
    this.batcher.clear();
    this.busy = this.threadId ? this.deps.engine.isBusy(this.threadId) : false;
    this.send({
      type: 'state',
      threadId: this.threadId ?? null,
      events,
      threads: await this.threadSummaries(),
      config: this.deps.config(),
      busy: this.busy,
    });
  }

  private onEngineEvent(event: RunEvent): void {
    if (event.kind === 'run.started' && event.parentThreadId && this.family.has(event.parentThreadId)) this.family.add(event.threadId);
    if (this.family.has(event.threadId) && this.post) this.batcher.push(event);
  }

  private refreshBusy(): void {
    const busy = this.threadId ? this.deps.engine.isBusy(this.threadId) : false;
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
