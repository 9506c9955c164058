import { contentHash } from './contentHash';

/** Files larger than this are hashed but not kept: a change to one is listed, and cannot be reverted. */
export const MAX_SNAPSHOT_BYTES = 10 * 1024 * 1024;

/**
 * The contents behind reverts and diffs, by content hash: the same content is kept once, whoever
 * and however often it was seen. The file store keeps them beside the threads; the memory store
 * serves tests and hosts without storage.
 */
export interface SnapshotStore {
  /** Keeps `content` (unless it is over MAX_SNAPSHOT_BYTES) and returns its hash. */
  put(content: string | Uint8Array): Promise<string>;
  /** The content of a hash, or undefined when it was never kept or was removed by the size cap. */
  get(hash: string): Promise<Buffer | undefined>;
  /** Why the snapshots of a thread are gone (the size cap took them), or undefined. */
  prunedNote(threadId: string): Promise<string | undefined>;
  /** Every thread whose snapshots the size cap took, with that note. */
  prunedNotes(): Promise<Record<string, string>>;
  /** Keeps these from the size cap although no thread refers to them (yet): `owner`'s set replaces its last one. */
  retain(owner: object, hashes: Iterable<string>): void;
  /** Removes the snapshots no thread refers to any more (after threads were deleted). */
  dropUnreferenced(): Promise<void>;
}

export class MemorySnapshotStore implements SnapshotStore {
  private readonly blobs = new Map<string, Buffer>();

  async put(content: string | Uint8Array): Promise<string> {
    const hash = contentHash(content);
    const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : Buffer.from(content);
    if (bytes.length <= MAX_SNAPSHOT_BYTES && !this.blobs.has(hash)) this.blobs.set(hash, bytes);
    return hash;
  }

  async get(hash: string): Promise<Buffer | undefined> {
    return this.blobs.get(hash);
  }

  async prunedNote(): Promise<string | undefined> {
    return undefined;
  }

  async prunedNotes(): Promise<Record<string, string>> {
    return {};
  }

  /** Nothing is pruned here. */
  retain(): void {}

  /** It does not know the threads: its snapshots live as long as the process. */
  async dropUnreferenced(): Promise<void> {}

  /** Bytes kept, for tests. */
  get size(): number {
    let total = 0;
    for (const b of this.blobs.values()) total += b.length;
    return total;
  }
}
