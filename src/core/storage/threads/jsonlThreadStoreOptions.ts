import type { Clock, Logger } from '../../ports';
import type { TakeFileLock } from '../../platform/files/fileLock';

export interface JsonlThreadStoreOptions {
  /** The directory of thread files (`<threadId>.jsonl`) and `index.json`; made when missing. */
  dir: string;
  /**
   * Close runs left open on disk (started, never finished) as `interrupted`, with a real
   * run.finished event, when this process loads their thread and no other process holds its
   * lease (so the process that ran them is gone). Read-only tools (`subagents threads show`) leave
   * it false. Lazy, per thread, so startup does not read every file.
   */
  recoverInterrupted?: boolean;
  /** A lease not refreshed for this long belongs to a dead process and is broken (default 10 s). */
  leaseStaleMs?: number;
  logger?: Logger;
  clock?: Clock;
  /** How long an `updatedAt` change waits before the index is rewritten (default 1000 ms); flush() writes it at once. */
  indexDelayMs?: number;
  /** The lock behind thread leases (default: takeFileLock); a test port can hold it back. */
  takeLock?: TakeFileLock;
}
