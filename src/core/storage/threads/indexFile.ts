import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { takeFileLock } from '../../platform/files/fileLock';
import type { Clock, Logger } from '../../ports';
import { isThreadId } from './threadId';
import type { RunEvent } from '../../../shared/events';
import { INDEX_FILE, metaFromEvents, noteRun, readIndex, removeStaleIndexTemps, writeIndex, type StoredThreadMeta } from './threadIndex';
import type { ParsedThreadFile } from './threadFile';
import type { ThreadMeta } from './threadStore';

export interface IndexFileOptions {
  dir: string;
  logger: Logger;
  clock: Clock;
  /** How long an `updatedAt` change waits before the index is rewritten; flush writes it at once. */
  delayMs: number;
  /** Reads a thread file, to rebuild the entry of a thread the index lacks. */
  readThread: (id: string) => Promise<ParsedThreadFile>;
  /** A thread this process has open: its entry is kept though its file may not be there yet. */
  isOpenHere: (id: string) => boolean;
}

/**
 * index.json, shared by every process on the directory. Each write is a merge under a short lock
 * (read what is on disk, add what this process knows, drop what it deleted and entries whose file
 * is gone, write atomically), so two windows never overwrite each other's threads. A missing or
 * corrupt index is rebuilt from the thread files.
 */
export class IndexFile {
  private loading: Promise<Map<string, ThreadMeta>> | undefined;
  /** The loaded entries, for synchronous use (a thread is appended to only after it loads). */
  now: Map<string, ThreadMeta> | undefined;
  private readonly deleted = new Set<string>();
  /** The runs of each thread that are working in this process (it writes their events). */
  private readonly openRuns = new Map<string, Set<string>>();
  private writing: Promise<void> | null = null;
  private dirty = false;
  private stale = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly options: IndexFileOptions) {}

  load(): Promise<Map<string, ThreadMeta>> {
    this.loading ??= this.doLoad().then((index) => (this.now = index));
    return this.loading;
  }

  /**
   * Notes an appended event: a newer `updatedAt`, a run's start or end (the thread's run count and
   * status). The index is rewritten later (or on flush), not once per event.
   */
  note(event: RunEvent): void {
    const meta = this.now?.get(event.threadId);
    if (!meta) return;
    let changed = false;
    if (event.ts > meta.updatedAt) {
      meta.updatedAt = event.ts;
      changed = true;
    }
    // A run's id finds its thread from now on. An entry of an older index has no list yet: threadOfRun completes it from the file.
    if (event.kind === 'run.started' && meta.runIds && !meta.runIds.includes(event.runId)) {
      meta.runIds.push(event.runId);
      changed = true;
    }
    if (event.kind === 'run.started' || event.kind === 'run.finished') {
      let open = this.openRuns.get(event.threadId);
      if (!open) this.openRuns.set(event.threadId, (open = new Set()));
      changed = noteRun(meta, event, open) || changed;
      if (open.size === 0) this.openRuns.delete(event.threadId);
    }
    if (changed) this.schedule();
  }

  /** Whether a run of the thread works in this process. */
  hasOpenRuns(id: string): boolean {
    return this.openRuns.has(id);
  }

  /** The user's title for a thread; written at once. False when there is no such thread. */
  async rename(id: string, title: string): Promise<boolean> {
    const index = await this.refresh();
    const meta = index.get(id);
    if (!meta) return false;
    meta.title = title;
    meta.renamedAt = Math.max(this.options.clock.now(), (meta.renamedAt ?? 0) + 1);
    await this.save();
    return true;
  }

  /**
   * The thread a run belongs to. An entry written before the index kept run ids is completed from
   * its thread file, once.
   */
  async threadOfRun(runId: string): Promise<string | undefined> {
    const index = await this.refresh();
    for (const meta of index.values()) if (meta.runIds?.includes(runId)) return meta.id;
    let completed = false;
    for (const meta of index.values()) {
      if (meta.runIds) continue;
      meta.runIds = metaFromEvents(meta.id, (await this.options.readThread(meta.id)).events, 0).runIds;
      completed = true;
    }
    if (completed) this.schedule();
    for (const meta of index.values()) if (meta.runIds?.includes(runId)) return meta.id;
    return undefined;
  }

  add(meta: ThreadMeta): void {
    this.now?.set(meta.id, meta);
    this.deleted.delete(meta.id);
    this.schedule();
  }

  remove(id: string): void {
    this.now?.delete(id);
    this.openRuns.delete(id);
    this.deleted.add(id);
  }

  /**
   * Takes in threads other processes made since this one loaded (from their index entries, or
   * from the thread files of those whose entry is not written yet), and forgets those they deleted.
   */
  async refresh(): Promise<Map<string, ThreadMeta>> {
    const index = await this.load();
    const disk = await readIndex(this.options.dir);
    const files = await this.threadFiles();
    // No index on disk (none written yet, or a broken one, which the next write replaces): the files say what there is.
    await this.absorb(index, typeof disk === 'string' ? [] : disk, files);
    for (const id of files) {
      if (index.has(id) || this.deleted.has(id)) continue;
      // Only once its first run has started: before that the file cannot say its title, agent or parent.
      const events = (await this.options.readThread(id)).events;
      if (events.some((e) => e.kind === 'run.started')) index.set(id, metaFromEvents(id, events, this.options.clock.now()));
    }
    return index;
  }

  /** Writes soon (debounced); save() writes at once. */
  schedule(): void {
    this.stale = true;
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.stale)
        this.save().catch((e: unknown) => this.options.logger.error(`Could not write the thread index: ${(e as Error).message}`));
    }, this.options.delayMs);
    this.timer.unref();
  }

  /** Resolves when the index on disk holds everything this process knows. */
  async flush(): Promise<void> {
    if (this.stale) await this.save();
    else if (this.writing) await this.writing;
  }

  /** Writes the index; writes are serialized, and requests made during a write cause one more. */
  async save(): Promise<void> {
    const index = await this.load();
    this.dirty = true;
    this.stale = false;
    this.writing ??= this.writeLoop(index);
    return this.writing;
  }

  dispose(): void {
    clearTimeout(this.timer);
  }

  private async doLoad(): Promise<Map<string, ThreadMeta>> {
    const { dir, logger } = this.options;
    await mkdir(dir, { recursive: true });
    await removeStaleIndexTemps(dir);
    const read = await readIndex(dir);
    const files = await this.threadFiles();
    const index = new Map<string, ThreadMeta>();
    let changed = false;
    if (typeof read === 'string') {
      if (files.size > 0)
        logger.warn(`The thread index ${join(dir, INDEX_FILE)} cannot be used: ${read}. Rebuilding it from the thread files.`);
      changed = files.size > 0;
    } else {
      for (const meta of read) {
        if (!files.has(meta.id))
          changed = true; // its file is gone: the entry is stale
        else if (meta.runCount === undefined || meta.status === undefined) {
          // Written before the index kept counts: filled in from the file, once.
          index.set(meta.id, await this.complete(meta));
          changed = true;
        } else index.set(meta.id, meta as ThreadMeta);
      }
    }
    for (const id of files) {
      if (index.has(id)) continue;
      const parsed = await this.options.readThread(id);
      index.set(id, metaFromEvents(id, parsed.events, this.options.clock.now()));
      changed = true;
    }
    this.now = index;
    if (changed) {
      this.dirty = true;
      this.writing = this.writeLoop(index);
      await this.writing;
    }
    return index;
  }

  private async writeLoop(index: Map<string, ThreadMeta>): Promise<void> {
    try {
      while (this.dirty) {
        this.dirty = false;
        await this.mergeAndWrite(index);
      }
    } finally {
      this.writing = null;
    }
  }

  private async mergeAndWrite(index: Map<string, ThreadMeta>): Promise<void> {
    const { dir } = this.options;
    const unlock = await takeFileLock(join(dir, INDEX_FILE), {
      staleMs: 10_000,
      // Another process's write takes milliseconds: wait for it rather than fail.
      waitMs: 15_000,
      onCompromised: (error) => this.options.logger.warn(`The thread index lock was lost: ${error.message}`),
    });
    try {
      const disk = await readIndex(dir);
      const files = await this.threadFiles();
      await this.absorb(index, typeof disk === 'string' ? [] : disk, files);
      await writeIndex(dir, index.values());
    } finally {
      await unlock().catch(() => undefined);
    }
  }

  /**
   * Merges entries from disk into `index`: a newer `updatedAt` brings its run count and status, a
   * newer rename its title; deleted or fileless ids go.
   */
  private async absorb(index: Map<string, ThreadMeta>, disk: readonly StoredThreadMeta[], files: ReadonlySet<string>): Promise<void> {
    for (const meta of disk) {
      if (this.deleted.has(meta.id) || !files.has(meta.id)) continue;
      const mine = index.get(meta.id);
      if (!mine) {
        index.set(meta.id, await this.complete(meta));
        continue;
      }
      if (meta.updatedAt > mine.updatedAt) {
        mine.updatedAt = meta.updatedAt;
        // Unless this process works in the thread: then its own count and status are the newest.
        if (!this.openRuns.has(meta.id)) {
          if (meta.runCount !== undefined) mine.runCount = meta.runCount;
          if (meta.status !== undefined) mine.status = meta.status;
        }
      }
      if ((meta.renamedAt ?? 0) > (mine.renamedAt ?? 0)) {
        mine.title = meta.title;
        mine.renamedAt = meta.renamedAt;
      }
      // Runs started by other processes join this one's.
      if (meta.runIds) mine.runIds = [...new Set([...(mine.runIds ?? []), ...meta.runIds])];
    }
    for (const id of [...index.keys()]) if (!files.has(id) && !this.options.isOpenHere(id)) index.delete(id);
  }

  /** An entry with its run count and status, read from the thread file when the entry lacks them. */
  private async complete(meta: StoredThreadMeta): Promise<ThreadMeta> {
    if (meta.runCount !== undefined && meta.status !== undefined) return meta as ThreadMeta;
    const parsed = await this.options.readThread(meta.id);
    const counted = metaFromEvents(meta.id, parsed.events, this.options.clock.now());
    return { ...meta, runCount: counted.runCount, status: counted.status };
  }

  private async threadFiles(): Promise<Set<string>> {
    const names = await readdir(this.options.dir).catch(() => [] as string[]);
    return new Set(
      names
        .filter((f) => f.endsWith('.jsonl'))
        .map((f) => f.slice(0, -'.jsonl'.length))
        .filter(isThreadId),
    );
  }
}
