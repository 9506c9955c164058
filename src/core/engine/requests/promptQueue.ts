import type { Engine, SendResult } from '../engine';
import { errorText } from '../../../shared/errorText';
import { silentLogger, type Logger } from '../../ports';

/** The engine as the queue sees it: its public request API and nothing else. */
export type QueueEngine = Pick<Engine, 'send' | 'isBusy' | 'whenQuiet'>;

/** A message waiting for its thread to be quiet. */
export interface QueuedPrompt {
  /** Unique within this queue; what a UI names when it removes the message. */
  id: string;
  threadId: string;
  prompt: string;
  /** The profile that answers; the supervisor when absent. */
  agent?: string;
  /** The model in place of `subagents.model` for this message (Engine.send's `model`). */
  model?: string;
}

/** What happened to a thread's queue; every change of what `queued()` or `isBusy()` say is one. */
export type QueueChange =
  | { kind: 'queued' | 'removed'; threadId: string; item: QueuedPrompt }
  /** The message left the queue to be sent now. */
  | { kind: 'sending'; threadId: string; item: QueuedPrompt }
  /** The engine took the message: its run has started. */
  | { kind: 'sent'; threadId: string; item: QueuedPrompt; result: SendResult }
  /** The engine refused the message (an unknown agent, a store that cannot open the thread, …). */
  | { kind: 'refused'; threadId: string; item: QueuedPrompt; error: unknown }
  /** The thread is quiet and nothing of it is waiting: the queue let go of it. */
  | { kind: 'idle'; threadId: string };

/** At most this many messages wait per thread; a message past it is refused, never dropped. */
export const MAX_QUEUED_PER_THREAD = 20;

/**
 * The one rule for every UI that sends user messages (the panel now, a chat participant later):
 * a message sent while its thread works is never refused or lost; it waits here and becomes the
 * next turn once the thread is quiet (no run active, no background child, nothing unwritten).
 * While the queue starts a turn it counts the thread as busy itself, so it never leans on the
 * engine refusing a second send; and it starts at most one turn per thread at a time.
 */
export class PromptQueue {
  private readonly waiting = new Map<string, QueuedPrompt[]>();
  /** Threads this queue is driving: starting a turn, or waiting for the thread to be quiet. */
  private readonly driving = new Set<string>();
  private readonly listeners = new Set<(change: QueueChange) => void>();
  private nextId = 1;

  constructor(
    private readonly engine: QueueEngine,
    private readonly logger: Logger = silentLogger,
  ) {}

  /** Queues a message; when the thread is quiet it is sent at once, in this same call. */
  submit(request: { threadId: string; prompt: string; agent?: string; model?: string }): QueuedPrompt {
    const list = this.waiting.get(request.threadId) ?? [];
    if (list.length >= MAX_QUEUED_PER_THREAD) {
      throw new Error(
        `${MAX_QUEUED_PER_THREAD} messages are already waiting in this conversation: remove one, or wait for the current work to finish.`,
      );
    }
    const item: QueuedPrompt = {
      id: `q${this.nextId++}`,
      threadId: request.threadId,
      prompt: request.prompt,
      ...(request.agent === undefined ? {} : { agent: request.agent }),
      ...(request.model === undefined ? {} : { model: request.model }),
    };
    list.push(item);
    this.waiting.set(request.threadId, list);
    this.emit({ kind: 'queued', threadId: item.threadId, item });
    this.drive(item.threadId);
    return item;
  }

  /** Takes a waiting message out; false when it is not waiting any more (already sent, or unknown). */
  remove(threadId: string, id: string): boolean {
    const list = this.waiting.get(threadId);
    const at = list?.findIndex((i) => i.id === id) ?? -1;
    if (!list || at < 0) return false;
    const [item] = list.splice(at, 1);
    if (list.length === 0) this.waiting.delete(threadId);
    this.emit({ kind: 'removed', threadId, item: item! });
    return true;
  }

  /** The thread's waiting messages, oldest first. */
  queued(threadId: string): readonly QueuedPrompt[] {
    return this.waiting.get(threadId) ?? [];
  }

  /** The thread works, or is about to: a run is active, or this queue is starting the next turn. */
  isBusy(threadId: string): boolean {
    return this.driving.has(threadId) || this.engine.isBusy(threadId);
  }

  /** Threads with messages waiting or a turn being started. */
  threads(): string[] {
    return [...new Set([...this.waiting.keys(), ...this.driving])];
  }

  onChange(listener: (change: QueueChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Drops every waiting message (the window is closing); turns already started go on. */
  clear(): void {
    for (const [threadId, list] of [...this.waiting]) {
      this.waiting.delete(threadId);
      for (const item of list) this.emit({ kind: 'removed', threadId, item });
    }
  }

  private drive(threadId: string): void {
    if (this.driving.has(threadId)) return;
    this.driving.add(threadId);
    this.drain(threadId)
      .catch((error: unknown) => this.logger.error(`The message queue of thread ${threadId} stopped: ${errorText(error)}`))
      .finally(() => {
        this.driving.delete(threadId);
        // A message queued while the last wait ended would otherwise sit until the next submit.
        if (this.waiting.has(threadId)) this.drive(threadId);
        else this.emit({ kind: 'idle', threadId });
      });
  }

  /** Sends the thread's messages one turn at a time, each once the thread is quiet. */
  private async drain(threadId: string): Promise<void> {
    for (;;) {
      // Work not started here (a background child's wake-up turn, another client) ends first.
      while (this.engine.isBusy(threadId)) await this.engine.whenQuiet(threadId);
      const list = this.waiting.get(threadId);
      const item = list?.shift();
      if (!item) return;
      if (list!.length === 0) this.waiting.delete(threadId);
      this.emit({ kind: 'sending', threadId, item });
      let result: SendResult;
      try {
        result = await this.engine.send({
          threadId,
          prompt: item.prompt,
          ...(item.agent === undefined ? {} : { agent: item.agent }),
          ...(item.model === undefined ? {} : { model: item.model }),
        });
      } catch (error) {
        this.emit({ kind: 'refused', threadId, item, error });
        continue;
      }
      this.emit({ kind: 'sent', threadId, item, result });
      await this.engine.whenQuiet(threadId);
    }
  }

  private emit(change: QueueChange): void {
    for (const listener of this.listeners) {
      try {
        listener(change);
      } catch (error) {
        this.logger.error(`A message queue listener failed: ${errorText(error)}`);
      }
    }
  }
}
