import { open, type FileHandle } from 'node:fs/promises';
import type { Logger } from '../ports';
import { ThreadBusyError } from './threadLeases';

/**
 * The single writer of one thread file. `push` is synchronous and cheap (a queued line); one
 * drain at a time appends the queue as one batch, so lines are never split or interleaved. The
 * file stays open for appends while the thread is open here (one write per batch, not an open,
 * a write and a close). A failed batch is kept for the next push or flush, and said once.
 *
 * A new thread's file comes as `created` (its lease, then the file made with `wx`): nothing is
 * written before it is there, and when it cannot be, nothing is written at all and flush says why.
 */
export class ThreadFileWriter {
  /** Serialized events (without their newline) not yet on disk. */
  private queue: string[] = [];
  /** The one drain of this file, while it runs. */
  private writing: Promise<void> | null = null;
  private failure: unknown;
  /** The file, open for appends; opened on the first batch when the thread was not made here. */
  private handle: FileHandle | undefined;
  /** A new thread's file, until the first drain takes it. */
  private created: Promise<FileHandle> | undefined;
  /** Why a new thread's file could not be made: this writer writes nothing, ever. */
  private refused: unknown;
  private closed = false;
  /** Ends the wait of the batch being gathered, when a flush wants it written now. */
  private hurry: (() => void) | undefined;

  constructor(
    readonly id: string,
    readonly path: string,
    /** The seq the next appended event gets. */
    public nextSeq: number,
    private readonly logger: Logger,
    created?: Promise<FileHandle>,
  ) {
    if (created) {
      this.created = created;
      // Seen by drain, flush and close; not an unhandled rejection while nothing was appended yet.
      created.catch(() => undefined);
    }
  }

  push(line: string): void {
    this.queue.push(line);
    this.writing ??= this.drain();
  }

  /** Resolves when the drain under way (if any) has ended and a new thread's file is made (or refused). */
  private async settled(): Promise<void> {
    await this.takeCreated();
    if (this.writing) await this.writing;
  }

  /** Resolves when everything pushed is on disk; rejects with what is wrong when it cannot be. */
  async flush(): Promise<void> {
    // Someone waits: the batch under way need not wait for more appends.
    this.hurry?.();
    while (this.writing || this.queue.length > 0) {
      this.writing ??= this.drain();
      await this.writing;
      if (this.failure !== undefined && this.queue.length > 0) {
        const error = this.failure as Error;
        if (error instanceof ThreadBusyError) throw new Error(`Could not write thread ${this.id}: ${error.message}`);
        throw new Error(`Could not write thread ${this.id} to ${this.path}: ${error.message}. Check that the folder exists and is writable.`);
      }
    }
  }

  /** Lets the file go (after a flush, or before a delete); what is pushed later is not written. */
  async close(): Promise<void> {
    await this.settled();
    this.closed = true;
    const handle = this.handle;
    this.handle = undefined;
    await handle?.close().catch((error: unknown) => this.logger.warn(`Could not close thread file ${this.path}: ${(error as Error).message}`));
  }

  /** The new thread's file, once made; false when it was refused (said once). */
  private async takeCreated(): Promise<boolean> {
    if (this.created) {
      const created = this.created;
      try {
        this.handle = await created;
      } catch (error) {
        this.refused = error;
        this.logger.error(`Could not write thread ${this.id}: ${(error as Error).message}`);
      } finally {
        if (this.created === created) this.created = undefined;
      }
    }
    return this.refused === undefined;
  }

  private async drain(): Promise<void> {
    // Let a burst of appends gather into one batch: until the loop's next turn, or a flush. (While
    // a run streams, that turn can be milliseconds away; a close must not wait for it.)
    await new Promise<void>((resolve) => {
      const go = () => {
        this.hurry = undefined;
        resolve();
      };
      const turn = setImmediate(go);
      this.hurry = () => {
        clearImmediate(turn);
        go();
      };
    });
    try {
      if (!(await this.takeCreated())) {
        this.failure = this.refused;
        return;
      }
      while (this.queue.length > 0 && !this.closed) {
        const batch = `${this.queue.join('\n')}\n`;
        this.queue = [];
        try {
          this.handle ??= await open(this.path, 'a');
          await this.handle.appendFile(batch);
          this.failure = undefined;
        } catch (error) {
          // Keep the lines for the next attempt (the next append or flush), on a fresh handle, and report once here.
          this.queue.unshift(batch.slice(0, -1));
          this.failure = error;
          const handle = this.handle;
          this.handle = undefined;
          await handle?.close().catch(() => undefined);
          this.logger.error(`Could not write thread ${this.id} to ${this.path}: ${(error as Error).message}`);
          return;
        }
      }
    } finally {
      this.writing = null;
    }
  }
}
