import type { RunEvent, RunStatus, UnsequencedRunEvent } from '../../../shared/events';

/** How a thread stands: no run yet, a run working, or how its last run ended. */
export type ThreadStatus = 'empty' | 'running' | RunStatus;

/** The index entry of one thread. */
export interface ThreadMeta {
  id: string;
  /** The first line of the first task, for lists. */
  title: string;
  /** The first line of its first prompt (the title may be renamed or numbered); absent in older indexes. */
  firstPrompt?: string;
  /** The thread of the run that delegated to this one; null for a top-level thread. */
  parentThreadId: string | null;
  /** The agent that owns the thread (the supervisor for top-level threads). */
  agent: string;
  createdAt: number;
  updatedAt: number;
  /** Runs (turns) started in the thread so far. */
  runCount: number;
  status: ThreadStatus;
  /** When the user last renamed it; a newer rename wins when windows merge the index. */
  renamedAt?: number;
  /** The ids of the runs in this thread, so a run id finds its thread (`threads revert RUN`); absent in older indexes. */
  runIds?: string[];
}

export interface DeleteOptions {
  /** Refuse (ThreadBusyError) when a thread of the family is open here, not only in another process. */
  ifIdle?: boolean;
}

export interface OpenOptions {
  /**
   * The caller made this id just now (a fresh random id, or one derived from a thread whose lease
   * it holds), so no other process can know it yet: a store may open the thread without waiting
   * for its lease, which it still takes before anything is written.
   */
  newId?: boolean;
}

/** Where a thread would be, as its caller knows it. */
export interface ThreadWhere {
  parentThreadId: string;
}

/** What a store needs to make a thread's entry. */
export type NewThreadMeta = Pick<ThreadMeta, 'id' | 'title' | 'parentThreadId' | 'agent'> & Pick<Partial<ThreadMeta>, 'firstPrompt'>;

/** One thread of a family as an export file holds it: its index entry and its own events, in seq order. */
export interface ArchivedThread {
  meta: ThreadMeta;
  events: RunEvent[];
}

/** An import found threads the store already has: nothing was written. */
export class ThreadExistsError extends Error {
  override readonly name = 'ThreadExistsError';
  constructor(readonly threadIds: readonly string[]) {
    super(
      `This store already has ${threadIds.length === 1 ? `thread ${threadIds[0]}` : `${threadIds.length} of the file's threads (${threadIds.slice(0, 3).join(', ')}${threadIds.length > 3 ? ', …' : ''})`}; ` +
        'nothing was imported. Delete it first to replace it, or import into another store (--storage).',
    );
  }
}

export interface LoadedThread {
  meta: ThreadMeta;
  events: RunEvent[];
  /** What went wrong while reading (a torn last line, a bad record), each a full sentence. */
  warnings: string[];
}

/** A thread with its descendants: `meta` the thread's entry, `threads` every entry of the family, parents first. */
export interface LoadedFamily extends LoadedThread {
  threads: ThreadMeta[];
}

/**
 * Threads as append-only JSONL files of RunEvents plus an index written atomically.
 * Reading tolerates a torn last line; runs left open by a crash are closed as `interrupted` on load.
 */
export interface ThreadStore {
  /**
   * Creates the thread if it is new, else loads it, and makes this process its writer until the
   * matching close(): another process's open rejects (ThreadBusyError) meanwhile. Must be called
   * before appending to a thread.
   */
  open(meta: NewThreadMeta, options?: OpenOptions): Promise<LoadedThread>;
  /** Ends one open(): when it was the last, what is queued is written and the thread is free for others. */
  close(threadId: string): Promise<void>;
  /** Stamps the next seq of the event's thread and queues the line; returns the stamped event. */
  append(event: UnsequencedRunEvent): RunEvent;
  /** Resolves when everything appended so far is on disk, the index included. */
  flush(): Promise<void>;
  /**
   * Resolves when every event appended so far is on disk and the threads closed so far are free
   * for other processes; the index, a cache rebuilt from the threads, may follow a moment later.
   */
  flushThreads(): Promise<void>;
  /**
   * The thread, or undefined when there is none. `where.parentThreadId`, for an id the caller
   * derived from its own thread (a delegation's): a store that knows the conversation whole
   * (made here, written by no other process since) need not look on disk for it.
   */
  get(threadId: string, where?: ThreadWhere): Promise<LoadedThread | undefined>;
  /** The thread and all its descendant threads, their events merged in time order. */
  getFamily(threadId: string): Promise<LoadedFamily | undefined>;
  /**
   * Adds the threads of an export file (parents first), with their ids, entries and events as
   * they were (seq included). ThreadExistsError, with nothing written, when any id is taken.
   */
  importThreads(threads: readonly ArchivedThread[]): Promise<void>;
  /** Every thread, most recently updated first, from the index alone (no thread file is read). */
  list(): Promise<ThreadMeta[]>;
  /** Gives the thread the title the user chose; false when there is no such thread. */
  rename(threadId: string, title: string): Promise<boolean>;
  /**
   * Deletes the thread and its descendants; false when there was no such thread. With `ifIdle`
   * (retention), a thread of the family open in this process is left alone too: ThreadBusyError.
   */
  delete(threadId: string, options?: DeleteOptions): Promise<boolean>;
}
