import type { Worker } from 'node:worker_threads';
import { workerThreads } from '../../../platform/processes/workerThreads';
import {
  regexWorkerSource,
  type RegexWorkerFile,
  type RegexWorkerInit,
  type RegexWorkerMessage,
  type RegexWorkerReply,
} from './regexWorker';

/**
 * Workers for search_text's matcher, kept warm between searches: starting one costs about 20 ms of
 * CPU (a V8 isolate and node's bootstrap), more than the rest of a search ripgrep has prefiltered.
 * A worker goes back to the pool only when its search is over with every reply in: one cut short
 * with files in flight (the deadline, a cancel, the match cap) or that failed is terminated, so
 * nothing stuck or stale is ever reused. Idle workers end after a while and never keep the
 * process alive.
 */

const IDLE_MS = 30_000;
/** Searches at once beyond this start their own worker and terminate it after. */
const MAX_IDLE = 2;

export interface RegexWorkerLease {
  /** Matches one file; the worker answers in the order files were sent. After release: no matches, and nothing sent. */
  match(file: RegexWorkerFile): Promise<RegexWorkerReply>;
  /** The worker's error, once it had one. */
  readonly failure: Error | undefined;
  /** The search is over: the worker is kept for the next one if it owes no reply, else terminated. */
  release(): void;
}

const idle: { worker: Worker; timer: NodeJS.Timeout }[] = [];
let startedCount = 0;

/** How many workers were started so far (the bench and the tests see the pool work). */
export function regexWorkersStarted(): number {
  return startedCount;
}

function started(): Worker {
  startedCount++;
  const worker = new (workerThreads().Worker)(regexWorkerSource(), { eval: true });
  // Gone while idle (it cannot fail there, but a worker can be killed): out of the pool.
  worker.once('exit', () => {
    const at = idle.findIndex((w) => w.worker === worker);
    if (at >= 0) clearTimeout(idle.splice(at, 1)[0]!.timer);
  });
  return worker;
}

export function leaseRegexWorker(init: RegexWorkerInit): RegexWorkerLease {
  const kept = idle.pop();
  if (kept) clearTimeout(kept.timer);
  const worker = kept?.worker ?? started();
  worker.ref();
  const replies: ((reply: RegexWorkerReply) => void)[] = [];
  let failure: Error | undefined;
  const onMessage = (reply: RegexWorkerReply) => replies.shift()?.(reply);
  const onError = (error: Error) => (failure = error);
  worker.on('message', onMessage);
  worker.on('error', onError);
  let released = false;
  const post = (message: RegexWorkerMessage) => worker.postMessage(message);
  post({ search: init });
  return {
    match(file) {
      // A read that ended after its search did: the worker may be serving another search by now.
      if (released) return Promise.resolve({ matches: [] });
      const reply = new Promise<RegexWorkerReply>((resolve) => replies.push(resolve));
      // Moved, not copied, when the bytes are the whole of their buffer (a read's own); else (a slice of node's
      // shared pool) just they are copied, and the copy moved: the shared buffer is neither detached nor cloned.
      const whole =
        file.bytes.byteOffset === 0 && file.bytes.byteLength === file.bytes.buffer.byteLength && file.bytes.buffer instanceof ArrayBuffer;
      const bytes = whole ? file.bytes : new Uint8Array(file.bytes);
      const message: RegexWorkerMessage = { file: { ...file, bytes } };
      worker.postMessage(message, [bytes.buffer as ArrayBuffer]);
      return reply;
    },
    get failure() {
      return failure;
    },
    release() {
      if (released) return;
      released = true;
      worker.off('message', onMessage);
      worker.off('error', onError);
      if (replies.length > 0 || failure || idle.length >= MAX_IDLE) {
        void worker.terminate();
        return;
      }
      worker.unref();
      const timer = setTimeout(() => void worker.terminate(), IDLE_MS);
      timer.unref();
      idle.push({ worker, timer });
    },
  };
}
