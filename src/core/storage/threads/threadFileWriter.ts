import { closeSync, openSync, writeSync } from 'node:fs';
import type { Logger } from '../../ports';
import { ThreadBusyError } from './threadLeases';

/**
 * The single writer of one thread file. `push` is synchronous and cheap (a queued line); the queue
 * is appended as one batch on the loop's next turn, or at once when someone flushes, so lines are
 * never split or interleaved. The file stays open for appends while the thread is open here (one
 * write per batch, not an open, a write and a close). A failed batch is kept for the next push or
 * flush, and said once.
 *
 * The writes are synchronous (a batch of a few KB: 36 µs of the main thread, median in runs on
 * ext4): an async one finishes only on a later turn of the loop, which a run whose model answers at
 * once reaches only after its answer, so its whole thread was written after the answer, in round
 * trips through libuv's thread pool.
 *
 * A new thread's file is made by the store (`wx`) and comes with `ready`, its lease: nothing is
 * written before that is held, and when it cannot be, nothing is written at all and flush says why.
 */
export class ThreadFileWriter {
  /** Serialized events (without their newline) not yet on disk. */
  private queue: string[] = [];
  /** What a write cut short left of its batch: written first, so a line is never split by another. */
  private rest: Buffer | undefined;
  /** Why the last write failed, until one succeeds. */
  private failure: unknown;
  /** The file, open for appends; opened on the first batch when the thread was not made here. */
  private fd: number | undefined;
  /** A new thread's lease, until a write has waited for it. */
  private ready: Promise<void> | undefined;
  /** Why a new thread's file could not be made or its lease not taken: this writer writes nothing, ever (flush says why). */
  private refused: unknown;
  private closed = false;
  /** The batch gathered for the loop's next turn. */
  private turn: NodeJS.Immediate | undefined;

  constructor(
    readonly id: string,
    readonly path: string,
    /** The seq the next appended event gets. */
    public nextSeq: number,
    private readonly logger: Logger,
    made?: { fd: number; ready: Promise<void> } | { refused: unknown },
  ) {
    if (made && 'refused' in made) {
      this.refused = made.refused;
      this.logger.error(`Could not write thread ${this.id}: ${(made.refused as Error).message}`);
    } else if (made) {
      this.fd = made.fd;
      this.ready = made.ready.then(
        () => {
          this.ready = undefined;
        },
        (error: unknown) => {
          this.ready = undefined;
          this.refused = error;
          this.closeFile();
          this.logger.error(`Could not write thread ${this.id}: ${(error as Error).message}`);
        },
      );
    }
  }

  push(line: string): void {
    this.queue.push(line);
    // Let a burst of appends gather into one batch: until the loop's next turn, or a flush.
    this.turn ??= setImmediate(() => {
      this.turn = undefined;
      void this.write();
    });
  }

  /** Resolves when everything pushed is on disk; rejects with what is wrong when it cannot be. */
  async flush(): Promise<void> {
    await this.write();
    const failure = this.refused ?? this.failure;
    if (failure === undefined || (this.queue.length === 0 && !this.rest)) return;
    const error = failure as Error;
    if (error instanceof ThreadBusyError) throw new Error(`Could not write thread ${this.id}: ${error.message}`);
    throw new Error(`Could not write thread ${this.id} to ${this.path}: ${error.message}. Check that the folder exists and is writable.`);
  }

  /** Lets the file go (after a flush, or before a delete); what is pushed later is not written. */
  async close(): Promise<void> {
    if (this.ready) await this.ready;
    // A batch still gathering is not written (write() sees closed).
    this.closed = true;
    this.closeFile();
  }

  /** Writes what is queued, once a new thread's lease is held. */
  private async write(): Promise<void> {
    if (this.turn) clearImmediate(this.turn);
    this.turn = undefined;
    if (this.ready) await this.ready;
    if (this.refused !== undefined || this.closed || (this.queue.length === 0 && !this.rest)) return;
    let batch = this.rest ?? Buffer.alloc(0);
    if (this.queue.length > 0) {
      const lines = Buffer.from(`${this.queue.join('\n')}\n`);
      batch = batch.length > 0 ? Buffer.concat([batch, lines]) : lines;
      this.queue = [];
    }
    this.rest = undefined;
    let written = 0;
    try {
      this.fd ??= openSync(this.path, 'a');
      // A write to a file may take less than asked (a full disk): the rest follows at once, or, when it fails, on the next attempt.
      while (written < batch.length) written += writeSync(this.fd, batch, written);
      this.failure = undefined;
    } catch (error) {
      // Keep what is not written for the next attempt (the next append or flush), on a fresh descriptor, and report once here.
      this.rest = batch.subarray(written);
      this.failure = error;
      this.closeFile();
      this.logger.error(`Could not write thread ${this.id} to ${this.path}: ${(error as Error).message}`);
    }
  }

  private closeFile(): void {
    const fd = this.fd;
    this.fd = undefined;
    if (fd === undefined) return;
    try {
      closeSync(fd);
    } catch (error) {
      this.logger.warn(`Could not close thread file ${this.path}: ${(error as Error).message}`);
    }
  }
}
