import type { Logger } from '../../ports';
import { FileLockedError, takeFileLock, type TakeFileLock } from '../../platform/files/fileLock';

/** Another process (a second window on the folder, or `subagents run`) is writing the thread. */
export class ThreadBusyError extends Error {
  override readonly name = 'ThreadBusyError';
  constructor(readonly threadId: string) {
    super(
      'This thread is working in another window (or in a `subagents run` on the same folder). Wait for it to finish there, or start a new thread.',
    );
  }
}

interface HeldLease {
  count: number;
  unlock: Promise<() => Promise<void>>;
  /** Refreshing the lock failed since it was taken: another process may have broken it. */
  lost: boolean;
}

export interface ThreadLeasesOptions {
  /** A lease not refreshed for this long is taken to belong to a process that died (default 10 s). */
  staleMs?: number;
  logger: Logger;
  /** The lock between processes (default: takeFileLock); a test port can hold it back. */
  takeLock?: TakeFileLock;
}

/**
 * Per-thread leases between processes sharing one store directory: a file lock beside the thread
 * file (fileLock.ts), held while any run of this process works in the thread. Counted, so nested opens in one process share
 * one lease. Taken per run, not per append: an append costs no lock.
 */
export class ThreadLeases {
  private readonly held = new Map<string, HeldLease>();
  /** Leases being given back here: taking one again waits for that, or it would find its own lock still there. */
  private readonly releasing = new Map<string, Promise<void>>();

  constructor(private readonly options: ThreadLeasesOptions) {}

  /** Takes (or shares) the lease of the file at `path`; rejects with ThreadBusyError when another process holds it. */
  async acquire(id: string, path: string): Promise<void> {
    let entry = this.held.get(id);
    if (!entry) {
      const created: HeldLease = { count: 0, lost: false, unlock: this.lock(id, path, () => (created.lost = true)) };
      created.unlock.catch(() => {
        if (this.held.get(id) === created) this.held.delete(id);
      });
      this.held.set(id, (entry = created));
    }
    entry.count++;
    try {
      await entry.unlock;
    } catch (error) {
      entry.count--;
      throw error;
    }
  }

  /** Gives back one use of the lease; the last one unlocks it. */
  async release(id: string): Promise<void> {
    const mine = this.held.get(id);
    if (!mine) return;
    if (--mine.count > 0) return;
    this.held.delete(id);
    const released = this.unlock(id, mine);
    this.releasing.set(id, released);
    try {
      await released;
    } finally {
      if (this.releasing.get(id) === released) this.releasing.delete(id);
    }
  }

  /** Held here, and kept fresh since it was taken: no other process can have taken it meanwhile. */
  intact(id: string): boolean {
    const mine = this.held.get(id);
    return mine !== undefined && mine.count > 0 && !mine.lost;
  }

  /** How many opens of this process share the lease now (0: not held). */
  uses(id: string): number {
    return this.held.get(id)?.count ?? 0;
  }

  /** Gives the lease back whatever opens still share it (the thread was deleted, or shutdown). */
  async drop(id: string): Promise<void> {
    const mine = this.held.get(id);
    if (!mine) return;
    mine.count = 1;
    await this.release(id);
  }

  /** Every lease this process holds, given back (shutdown). */
  async releaseAll(): Promise<void> {
    for (const id of [...this.held.keys()]) await this.drop(id);
  }

  private async unlock(id: string, lease: HeldLease): Promise<void> {
    const unlock = await lease.unlock.catch(() => undefined);
    await unlock?.().catch((error: unknown) =>
      this.options.logger.warn(`Could not release the lease of thread ${id}: ${(error as Error).message}`),
    );
  }

  private async lock(id: string, path: string, onLost: () => void): Promise<() => Promise<void>> {
    // A turn that follows the last one at once (a message sent as the answer shows) waits for its lease to be given back.
    await this.releasing.get(id);
    try {
      return await (this.options.takeLock ?? takeFileLock)(path, {
        staleMs: this.options.staleMs ?? 10_000,
        // Logged, not thrown: the library's default handler would crash the extension host.
        onCompromised: (error) => {
          onLost();
          this.options.logger.error(`The lease of thread ${id} was lost: ${error.message}`);
        },
      });
    } catch (error) {
      if (error instanceof FileLockedError || error instanceof ThreadBusyError) throw new ThreadBusyError(id);
      throw error;
    }
  }
}
