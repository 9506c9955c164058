import type { ThreadLeases } from './threadLeases';

/**
 * The opens of threads in this process, each under its conversation's lease. A child thread is
 * only ever written by the runs of its conversation (a delegation, a continueThreadId from its
 * parent; a child thread cannot be sent to directly), so its lease is its top-level thread's:
 * a delegation takes no lock of its own, and another window can open no thread of a conversation
 * that works here. Counted per thread, so the store knows a thread's last close; each open holds
 * one use of the conversation's lease (ThreadLeases), given back at its close.
 */
export class ConversationLeases {
  /** Per thread open here: how many opens hold a use of the lease of `root`. */
  private readonly opens = new Map<string, { count: number; root: string }>();
  /**
   * Conversations made here whose lease this process has held ever since: no other process can
   * have written any of their threads, so what this process knows of them is all there is.
   */
  private readonly madeHere = new Set<string>();

  constructor(
    private readonly leases: ThreadLeases,
    private readonly pathOf: (id: string) => string,
  ) {}

  /**
   * Counts one open of the thread at once (before the first await) and takes or shares the lease
   * of its conversation; rejects with ThreadBusyError, the open not counted, when another process holds it.
   */
  async open(id: string, root: string): Promise<void> {
    const entry = this.opens.get(id) ?? { count: 0, root };
    entry.count++;
    this.opens.set(id, entry);
    try {
      await this.leases.acquire(entry.root, this.pathOf(entry.root));
    } catch (error) {
      this.forget(id);
      throw error;
    }
  }

  /** A new conversation (its top-level thread just made here, its lease taken with it). */
  made(root: string): void {
    this.madeHere.add(root);
  }

  /** Whether this process has been the only writer of the conversation since it was made (and still holds its lease). */
  onlyWriterOf(root: string): boolean {
    if (!this.madeHere.has(root)) return false;
    if (this.leases.intact(root)) return true;
    this.madeHere.delete(root);
    return false;
  }

  /** How many opens of this thread hold a lease here now. */
  uses(id: string): number {
    return this.opens.get(id)?.count ?? 0;
  }

  /** Ends one open of the thread: gives back its use of the conversation's lease. */
  async release(id: string): Promise<void> {
    const entry = this.opens.get(id);
    if (!entry) return;
    this.forget(id);
    await this.giveBack(entry.root);
  }

  /** Ends every open of the thread (it was deleted, or shutdown). */
  async drop(id: string): Promise<void> {
    const entry = this.opens.get(id);
    if (!entry) return;
    this.opens.delete(id);
    for (let i = 0; i < entry.count; i++) await this.giveBack(entry.root);
  }

  /** Takes a use of a conversation's lease for work that is not an open (a delete, an import); give it back with `giveBack(root)`. */
  hold(root: string): Promise<void> {
    return this.leases.acquire(root, this.pathOf(root));
  }

  giveBack(root: string): Promise<void> {
    const released = this.leases.release(root);
    // Free for other processes from here on (the count drops before the unlock's first await).
    if (this.leases.uses(root) === 0) this.madeHere.delete(root);
    return released;
  }

  /** Every open ended and every lease given back (shutdown). */
  async releaseAll(): Promise<void> {
    this.opens.clear();
    this.madeHere.clear();
    await this.leases.releaseAll();
  }

  private forget(id: string): void {
    const entry = this.opens.get(id);
    if (!entry) return;
    if (--entry.count <= 0) this.opens.delete(id);
  }
}
