import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { errorText } from '../../../shared/errorText';
import { silentLogger, type Logger } from '../../ports';
import { contentHash } from './contentHash';
import { dropUnreferencedSnapshots, listBlobs, pruneSnapshots, type ThreadReferences } from './snapshotCap';
import { isOwnFolder } from './ownFolder';
import { MAX_SNAPSHOT_BYTES, type SnapshotStore } from './snapshotStore';

export interface FileSnapshotStoreOptions {
  /** `<thread storage>/snapshots`: made when missing. */
  dir: string;
  /** `subagents.snapshots.maxMB` in bytes, read when the cap is checked. */
  maxBytes: () => number;
  /** Which snapshots each thread refers to, oldest thread first (read from the thread files when the cap is passed). */
  references: () => Promise<ThreadReferences[]>;
  logger?: Logger;
}

/** How long a snapshot no thread refers to is given for the event that refers to it to be written. */
const UNREFERENCED_GRACE_MS = 60_000;

const prunedSchema = z.object({ version: z.literal(1), threads: z.record(z.string(), z.number()) });

/**
 * Snapshots as files beside the threads, named by their content hash (`objects/ab/abcd…`), written
 * to a temp file and renamed, so a reader never sees half of one and the same content is one file.
 * Past the size cap the oldest threads' snapshots go (snapshotCap.ts); `pruned.json` remembers
 * which threads lost theirs, so a revert can say why.
 */
export class FileSnapshotStore implements SnapshotStore {
  private bytes: Promise<number> | undefined;
  private pruning: Promise<void> | undefined;
  private again: Promise<void> | undefined;
  private readonly logger: Logger;
  /** Hashes this process still needs although no thread refers to them yet (a command's before-state), by owner. */
  private readonly retained = new Map<object, ReadonlySet<string>>();

  constructor(private readonly options: FileSnapshotStoreOptions) {
    this.logger = options.logger ?? silentLogger;
  }

  async put(content: string | Uint8Array): Promise<string> {
    const hash = contentHash(content);
    const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
    if (bytes.length > MAX_SNAPSHOT_BYTES) return hash;
    const path = this.pathOf(hash);
    if (
      await stat(path).then(
        () => true,
        () => false,
      )
    )
      return hash;
    const folder = join(this.options.dir, 'objects', hash.slice(0, 2));
    await mkdir(folder, { recursive: true });
    // Written outside the sandbox, under a folder a command may have replaced with a link to anywhere.
    for (const dir of [this.options.dir, dirname(folder), folder]) {
      if (!(await isOwnFolder(dir)))
        throw new Error(
          `${dir} is a symbolic link or no folder, so no snapshot is written through it; remove it (the product makes it again)`,
        );
    }
    const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      await writeFile(temp, bytes);
      await rename(temp, path);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
    const total = (await this.total()) + bytes.length;
    this.bytes = Promise.resolve(total);
    if (total > this.options.maxBytes()) void this.enforceCap();
    return hash;
  }

  async get(hash: string): Promise<Buffer | undefined> {
    if (!/^[0-9a-f]{64}$/.test(hash)) return undefined;
    const data = await readFile(this.pathOf(hash)).catch(() => undefined);
    // A damaged file is no snapshot: a revert must never write what was not there.
    return data && contentHash(data) === hash ? data : undefined;
  }

  async prunedNote(threadId: string): Promise<string | undefined> {
    const at = (await this.readPruned())[threadId];
    return at === undefined ? undefined : prunedText(at);
  }

  async prunedNotes(): Promise<Record<string, string>> {
    return Object.fromEntries(Object.entries(await this.readPruned()).map(([id, at]) => [id, prunedText(at)]));
  }

  retain(owner: object, hashes: Iterable<string>): void {
    this.retained.set(owner, new Set(hashes));
  }

  /**
   * Brings the store under the cap (also at start-up); one pass at a time. Asked for while a pass
   * is under way, one more runs after it: that pass may have read the threads before the newest
   * wrote its events, and so kept what the newest one's arrival makes the oldest.
   */
  enforceCap(): Promise<void> {
    if (!this.pruning) {
      this.pruning = this.prune().finally(() => (this.pruning = undefined));
      return this.pruning;
    }
    this.again ??= this.pruning.then(() => {
      this.again = undefined;
      return this.enforceCap();
    });
    return this.again;
  }

  async dropUnreferenced(): Promise<void> {
    // After the cap's pass, if one runs: the two must not read the objects at once.
    await this.pruning?.catch(() => undefined);
    try {
      const bytes = await dropUnreferencedSnapshots({
        objects: join(this.options.dir, 'objects'),
        references: this.options.references,
        pinned: new Set([...this.retained.values()].flatMap((s) => [...s])),
        unreferencedBefore: Date.now() - UNREFERENCED_GRACE_MS,
      });
      this.bytes = Promise.resolve(bytes);
    } catch (error) {
      this.logger.error(`Could not remove the snapshots of deleted threads: ${errorText(error)}`);
    }
  }

  private async prune(): Promise<void> {
    try {
      const result = await pruneSnapshots({
        objects: join(this.options.dir, 'objects'),
        maxBytes: this.options.maxBytes(),
        references: this.options.references,
        pinned: new Set([...this.retained.values()].flatMap((s) => [...s])),
        unreferencedBefore: Date.now() - UNREFERENCED_GRACE_MS,
      });
      this.bytes = Promise.resolve(result.bytes);
      if (result.prunedThreads.length === 0) return;
      const pruned = await this.readPruned();
      for (const id of result.prunedThreads) pruned[id] = Date.now();
      await this.writePruned(pruned);
      this.logger.info(
        `Snapshots over subagents.snapshots.maxMB: removed those of ${result.prunedThreads.length} old thread(s); their runs can no longer be reverted.`,
      );
    } catch (error) {
      this.logger.error(`Could not bring the snapshots under subagents.snapshots.maxMB: ${errorText(error)}`);
    }
  }

  private total(): Promise<number> {
    this.bytes ??= listBlobs(join(this.options.dir, 'objects')).then((blobs) => blobs.reduce((sum, b) => sum + b.size, 0));
    return this.bytes;
  }

  private pathOf(hash: string): string {
    return join(this.options.dir, 'objects', hash.slice(0, 2), hash);
  }

  private async readPruned(): Promise<Record<string, number>> {
    const text = await readFile(join(this.options.dir, 'pruned.json'), 'utf8').catch(() => undefined);
    if (text === undefined) return {};
    try {
      const parsed = prunedSchema.safeParse(JSON.parse(text));
      return parsed.success ? parsed.data.threads : {};
    } catch {
      return {};
    }
  }

  private async writePruned(threads: Record<string, number>): Promise<void> {
    const target = join(this.options.dir, 'pruned.json');
    const temp = `${target}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    await writeFile(temp, JSON.stringify({ version: 1, threads }));
    await rename(temp, target);
  }
}

function prunedText(at: number): string {
  return `its snapshots were removed on ${new Date(at).toISOString()} to keep snapshots under subagents.snapshots.maxMB (the oldest threads' go first)`;
}
