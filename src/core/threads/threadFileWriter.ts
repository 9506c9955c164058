import { appendFile } from 'node:fs/promises';
import type { Logger } from '../ports';
import { ThreadBusyError } from './threadLeases';

/**
 * The single writer of one thread file. `push` is synchronous and cheap (a queued line); one
 * drain at a time writes the queue with one appendFile per batch, so lines are never split or
 * interleaved. A failed batch is kept for the next push or flush, and said once. Nothing is
 * written before `ready` (a new thread's lease, then its file) resolves; when it rejects, nothing
 * is written at all and flush says why.
 */
export class ThreadFileWriter {
  /** Serialized events (without their newline) not yet on disk. */
  private queue: string[] = [];
  /** The one drain of this file, while it runs. */
  private writing: Promise<void> | null = null;
  private failure: unknown;

  constructor(
    readonly id: string,
    readonly path: string,
    /** The seq the next appended event gets. */
    public nextSeq: number,
    private readonly logger: Logger,
    private readonly ready: Promise<void> = Promise.resolve(),
  ) {
    // Seen by drain and flush; not an unhandled rejection while nothing was appended yet.
    ready.catch(() => undefined);
  }

  push(line: string): void {
    this.queue.push(line);
    this.writing ??= this.drain();
  }

  /** Resolves when the drain under way (if any) has ended; for a delete, which must not race it. */
  async settled(): Promise<void> {
    // A new thread's file may still be on its way: it must not land after the delete.
    await this.ready.catch(() => undefined);
    if (this.writing) await this.writing;
  }

  /** Resolves when everything pushed is on disk; rejects with what is wrong when it cannot be. */
  async flush(): Promise<void> {
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

  private async drain(): Promise<void> {
    // Let a synchronous burst of appends gather into one batch.
    await new Promise<void>((resolve) => setImmediate(resolve));
    try {
      try {
        await this.ready;
      } catch (error) {
        this.failure = error;
        this.logger.error(`Could not write thread ${this.id}: ${(error as Error).message}`);
        return;
      }
      while (this.queue.length > 0) {
        const batch = `${this.queue.join('\n')}\n`;
        this.queue = [];
        try {
          await appendFile(this.path, batch);
          this.failure = undefined;
        } catch (error) {
          // Keep the lines for the next attempt (the next append or flush) and report once here.
          this.queue.unshift(batch.slice(0, -1));
          this.failure = error;
          this.logger.error(`Could not write thread ${this.id} to ${this.path}: ${(error as Error).message}`);
          return;
        }
      }
    } finally {
      this.writing = null;
    }
  }
}
