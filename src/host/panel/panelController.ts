import type { Engine } from '../../core/engine/engine';
import type { ApprovalRequest, Logger } from '../../core/ports';
import type { PromptQueue, QueueChange } from '../../core/engine/requests/promptQueue';
import { newThreadId } from '../../core/storage/threads/newThreadId';
import type { ThreadStore } from '../../core/storage/threads/threadStore';
import { withAttachedContext } from '../../shared/attachedContext';
import { errorText } from '../../shared/errorText';
import type { ApprovalDecision } from '../../shared/events';
import { oneLine } from '../../shared/oneLine';
import { deleteAllConversations, deleteConversation } from './threadDeletion';
import {
  webviewToHostSchema,
  type HostToWebview,
  type PanelConfig,
  type ProblemLocation,
  type QueuedPromptView,
  type ThreadSummary,
  type WebviewToHost,
} from '../../shared/protocol';
import { alwaysAllow } from '../commands/alwaysAllow';
import { PanelAttachments, type AttachmentEditor } from '../attachments/panelAttachments';
import type { ChosenModel, ModelChoiceList } from '../models/modelChooser';
import { PanelRunChanges } from './panelRunChanges';
import { ThreadFeed } from './threadFeed';
import { threadSummaries } from './threadSummaries';

/** Where the controller remembers the open thread across window reloads (workspaceState). */
export interface ThreadMemory {
  get(): string | undefined;
  set(threadId: string | undefined): PromiseLike<void>;
}

/** What the panel needs from the editor: attachments and Insert at cursor. */
export interface PanelEditor extends AttachmentEditor {
  /** Inserts at the cursor of the active editor (replacing its selection); false when no editor is open. */
  insertAtCursor(text: string): Promise<boolean>;
}

export interface PanelControllerDeps {
  engine: Pick<Engine, 'onEvent' | 'cancel' | 'cancelRun' | 'steerRun'>;
  store: ThreadStore;
  /** Sends the user's prompts, now or once their thread is quiet: the rule every UI shares. */
  queue: PromptQueue;
  memory: ThreadMemory;
  config: () => PanelConfig;
  logger: Logger;
  /** Where the panel's Approve once / Deny answers go (the engine's approver), and what waits. */
  approvals?: { resolve(approvalId: string, decision: ApprovalDecision): boolean; waiting(): ApprovalRequest[] };
  /** The models the user may pick, and carrying out a pick (see ModelChooser). */
  models?: { list(): Promise<ModelChoiceList>; choose(id: string): Promise<ChosenModel | undefined> };
  /** Opens where a configuration problem is fixed (it checks the place itself). */
  openLocation?: (location: ProblemLocation) => Promise<void>;
  /** The workspace folder attachments come from; undefined when no folder is open. */
  workspaceRoot?: string;
  editor?: PanelEditor;
  /** Asks the user to confirm (a modal dialog); true when they chose `action`. */
  confirm?: (message: string, action: string, detail: string) => Promise<boolean>;
  /** Ends the external agents (ACP) kept for a deleted conversation's child threads. */
  endAgents?: (rootThreadId: string) => Promise<void>;
  /** Adds a command prefix to the user setting subagents.autoApproveCommands. */
  allowCommand?: (prefix: string) => Promise<void>;
  /** Told when the open thread starts or stops working (the view's Stop button). */
  onBusyChange?: (busy: boolean) => void;
  /** A run's changed files: diffs, revert, and Apply / Discard for worktree runs. */
  runChanges?: PanelRunChanges;
  batchIntervalMs?: number;
}

/**
 * The host side of the panel: validates what the webview sends, hands prompts to the queue, and
 * streams the open thread's events back in batches. Knows the webview only as a `post` function
 * and the editor not at all, so it is tested with plain fakes.
 */
export class PanelController {
  private post: ((message: HostToWebview) => void) | undefined;
  /** The webview said `ready` since it was attached: it hears what is posted. */
  private ready = false;
  private focusPending = false;
  private busy = false;
  private readonly attachments: PanelAttachments | undefined;
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
    const editor = deps.editor;
    this.attachments =
      editor && new PanelAttachments({ root: deps.workspaceRoot, editor, changed: (items) => this.send({ type: 'attachments', items }) });
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
    this.ready = false;
    this.deps.runChanges?.attach(post);
  }

  detach(): void {
    this.post = undefined;
    this.ready = false;
    this.deps.runChanges?.detach();
    this.feed.clear();
  }

  /** Puts the keyboard focus in the prompt box: now, or once the webview is ready to hear it. */
  focusPrompt(): void {
    if (this.post && this.ready) this.send({ type: 'focusPrompt' });
    else this.focusPending = true;
  }

  /** The thread the panel shows; undefined for a new, empty one. */
  get openThreadId(): string | undefined {
    return this.threadId;
  }

  /** A message from the webview: anything that is not a valid WebviewToHost is dropped and logged. */
  async receive(raw: unknown): Promise<void> {
    const parsed = webviewToHostSchema.safeParse(raw);
    if (!parsed.success) {
      this.deps.logger.warn(
        `Dropped an invalid message from the panel: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`,
      );
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

  /** Stops the open thread's runs; false when none of them works. */
  cancel(): boolean {
    if (!this.threadId || !this.deps.queue.isBusy(this.threadId)) return false;
    this.deps.logger.info(`Cancelling thread ${this.threadId} at the user's request.`);
    this.deps.engine.cancel(this.threadId);
    return true;
  }

  /** Deletes a conversation after asking (threadDeletion.ts): false when the user said no; throws a sentence when it cannot. */
  async deleteThread(threadId: string): Promise<boolean> {
    if (!(await deleteConversation(this.deps, threadId))) return false;
    if (threadId === this.threadId) await this.open(undefined);
    else await this.sendThreads();
    return true;
  }

  /** Deletes every conversation after one confirmation (threadDeletion.ts); undefined when the user backs out or there is none. */
  async deleteAllThreads(): Promise<{ deleted: number; kept: number } | undefined> {
    const result = await deleteAllConversations(this.deps);
    if (!result) return undefined;
    if (this.threadId && !(await this.deps.store.get(this.threadId))) await this.open(undefined);
    else await this.sendThreads();
    return result;
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
    if (PanelRunChanges.handles(message)) {
      if (!this.deps.runChanges) throw new Error("A run's changes cannot be shown or undone here.");
      return this.deps.runChanges.handle(message, this.threadId);
    }
    switch (message.type) {
      case 'ready':
        await this.sendState(this.threadId);
        this.ready = true;
        if (this.attachments) this.send({ type: 'attachments', items: this.attachments.view() });
        if (this.focusPending) {
          this.focusPending = false;
          this.send({ type: 'focusPrompt' });
        }
        return;
      case 'send':
        return this.sendPrompt(message.text, message.agent, message.attachments ?? []);
      case 'unqueue':
        // Already sent (or never queued): the queue message that follows shows what is left.
        if (this.threadId) this.deps.queue.remove(this.threadId, message.id);
        return;
      case 'cancel':
        this.cancel();
        return;
      case 'newThread':
        return this.newThread();
      case 'openThread': {
        const exists = await this.deps.store.get(message.threadId);
        if (!exists || exists.meta.parentThreadId !== null)
          throw new Error('That conversation is no longer there; it may have been deleted.');
        return this.open(message.threadId);
      }
      case 'resolveApproval':
        // Only a request that is still waiting can be answered; a stale id never reaches another call.
        if (!this.deps.approvals?.resolve(message.approvalId, message.decision)) {
          throw new Error('That approval is no longer waiting: its run has already moved on.');
        }
        return;
      case 'alwaysAllow': {
        const { approvals, confirm, allowCommand } = this.deps;
        if (!approvals || !confirm || !allowCommand) throw new Error('"Always allow" is not available here; approve once instead.');
        const added = await alwaysAllow({ approvals, confirm, allowCommand }, message.approvalId, message.prefix);
        if (added)
          this.send({
            type: 'notice',
            level: 'info',
            message: `Commands that start with "${added}" now run without asking (subagents.autoApproveCommands in your user settings), from your next message on.`,
          });
        return;
      }
      case 'listModels':
        return this.listModels();
      case 'chooseModel':
        return this.chooseModel(message.id);
      case 'openLocation':
        if (!this.deps.openLocation) throw new Error('Opening files from the panel is not available here.');
        return this.deps.openLocation(message.location);
      case 'cancelRun':
        // Only a run of the conversation shown: its parent goes on with what it had done.
        return this.deps.engine.cancelRun(message.runId, this.shownThread());
      case 'steerRun':
        return this.deps.engine.steerRun(message.runId, message.text, this.shownThread());
      case 'attach':
        return this.needAttachments().attach(message.kind, message.path);
      case 'detach':
        return this.needAttachments().detach(message.id);
      case 'insertAtCursor':
        if (!this.deps.editor) throw new Error('Inserting into an editor is not available here.');
        if (!(await this.deps.editor.insertAtCursor(message.text)))
          throw new Error(
            'No editor is open: open a file and put the cursor where the code should go, then choose Insert at cursor again.',
          );
        return;
      case 'renameThread':
        if (!(await this.deps.store.rename(message.threadId, oneLine(message.title, 120))))
          throw new Error('That conversation is no longer there; it may have been deleted.');
        return this.sendThreads();
      case 'deleteThread':
        await this.deleteThread(message.threadId);
        return;
    }
  }

  private needAttachments(): PanelAttachments {
    if (!this.attachments) throw new Error('Attaching context is not available here.');
    return this.attachments;
  }

  /** The conversation on screen; a run control with none shown has nothing to act on. */
  private shownThread(): string {
    if (!this.threadId) throw new Error('No conversation is open, so there is no run to stop or tell.');
    return this.threadId;
  }

  private async listModels(): Promise<void> {
    if (!this.deps.models) throw new Error('Choosing a model here is not available; set "subagents.model" in your settings.');
    this.send({ type: 'modelChoices', ...(await this.deps.models.list()) });
  }

  private async chooseModel(id: string): Promise<void> {
    if (!this.deps.models) throw new Error('Choosing a model here is not available; set "subagents.model" in your settings.');
    const chosen = await this.deps.models.choose(id);
    // The new setting reaches the panel as a config message (the host watches the settings).
    if (chosen)
      this.send({
        type: 'notice',
        level: 'info',
        message: `The model is now ${chosen.spec} (saved as "subagents.model" in ${chosen.savedIn}).`,
      });
  }

  private async sendPrompt(text: string, agent: string | undefined, attachmentIds: readonly string[]): Promise<void> {
    const attached = attachmentIds.length ? this.needAttachments().take(attachmentIds) : [];
    const prompt = withAttachedContext(text, attached);
    let threadId = this.threadId;
    if (!threadId) {
      // Chosen here so the first events of the new thread are recognised as ours.
      threadId = newThreadId();
      this.feed.follow(threadId);
      await this.deps.memory.set(threadId);
    }
    const profile = agent === undefined ? undefined : this.profileName(agent);
    this.deps.queue.submit({ threadId, prompt, ...(profile === undefined ? {} : { agent: profile }) });
  }

  /** `@Name` may be an agent's id or its display name (a Copilot agent's `name:`); the engine refuses unknown ones, listing what there is. */
  private profileName(agent: string): string {
    const wanted = agent.replace(/^@/, '').toLowerCase();
    const known = this.deps.config().agents;
    return (
      (known.find((a) => a.name === wanted) ?? known.find((a) => a.displayName?.toLowerCase() === wanted))?.name ?? agent.replace(/^@/, '')
    );
  }

  private onQueueChange(change: QueueChange): void {
    // Any thread's turn starting or ending changes the list (its status, its count).
    if (change.kind === 'sent' || change.kind === 'idle') void this.sendThreads();
    if (change.threadId !== this.threadId) return;
    if (change.kind === 'sent') {
      // The run's end shows at once, not a batch interval later.
      void change.result.done.finally(() => this.feed.flushNow()).catch(() => undefined);
    } else if (change.kind === 'refused') {
      const reason = errorText(change.error);
      this.deps.logger.error(`A message was not sent: ${reason}`);
      this.send({
        type: 'notice',
        level: 'error',
        message: `Your message "${oneLine(change.item.prompt, 60)}" was not sent: ${reason}`,
        threadId: change.threadId,
      });
    }
    if (change.kind !== 'sent') this.send({ type: 'queued', threadId: change.threadId, queued: this.queuedView(change.threadId) });
    this.refreshBusy();
  }

  private async open(threadId: string | undefined): Promise<void> {
    await this.deps.memory.set(threadId);
    await this.sendState(threadId);
  }

  /** Shows a thread, or (undefined) a new, empty conversation. */
  private async sendState(threadId: string | undefined): Promise<void> {
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
    await this.deps.runChanges?.refresh();
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

  private threadSummaries(): Promise<ThreadSummary[]> {
    return threadSummaries(this.deps.store, (id) => this.deps.queue.isBusy(id));
  }

  private send(message: HostToWebview): void {
    this.post?.(message);
  }
}
