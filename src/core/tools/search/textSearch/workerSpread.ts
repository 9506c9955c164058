import type { RegexWorkerFile, RegexWorkerInit, RegexWorkerReply } from './regexWorker';
import { leaseRegexWorker, type RegexWorkerLease } from './regexWorkerPool';

/**
 * A search's matching spread over two workers once it has much to match: the candidates ripgrep
 * picks in a real tree are often large (bundles, fixtures: 22 MB in 274 files of the ai SDK's
 * repository), and one worker testing them all was the longest part of such a search. A second
 * worker is leased only when the first has more than SECOND_WORKER_BYTES waiting, so a search of
 * small files keeps to one. Each file goes to the worker with fewer bytes waiting; every reply
 * still comes back to its own file.
 */
const SECOND_WORKER_BYTES = 256 * 1024;

export type WorkerSpread = Pick<RegexWorkerLease, 'match' | 'failure' | 'release'>;

export function spreadOverWorkers(init: RegexWorkerInit): WorkerSpread {
  const workers: { lease: RegexWorkerLease; waiting: number }[] = [{ lease: leaseRegexWorker(init), waiting: 0 }];
  let released = false;
  return {
    match(file: RegexWorkerFile): Promise<RegexWorkerReply> {
      if (workers.length === 1 && workers[0]!.waiting > SECOND_WORKER_BYTES && !released)
        workers.push({ lease: leaseRegexWorker(init), waiting: 0 });
      const least = workers.reduce((a, b) => (b.waiting < a.waiting ? b : a));
      const bytes = file.bytes.byteLength;
      least.waiting += bytes;
      return least.lease.match(file).finally(() => (least.waiting -= bytes));
    },
    get failure() {
      return workers.find((w) => w.lease.failure)?.lease.failure;
    },
    release() {
      released = true;
      for (const { lease } of workers) lease.release();
    },
  };
}
