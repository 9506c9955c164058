import { Worker } from 'node:worker_threads';
import { realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { insideReader } from '../fileAccess/readInside';
import { walkWorkspace } from '../tools/workspaceFiles';
import { regexWorkerSource, type RegexWorkerFile, type RegexWorkerInit, type RegexWorkerReply } from './regexWorker';

/**
 * Searches the workspace's text with a JavaScript regular expression: the walk and the reads stay
 * on the caller's thread (async), the matching runs in a worker (regexWorker.ts) that is
 * terminated at the deadline or when the signal aborts, so no pattern can stall the host.
 * Self-contained: a faster searcher (ripgrep) can sit in front of it and fall back to it.
 */

export interface TextSearchRequest {
  root: string;
  pattern: string;
  caseSensitive: boolean;
  /** Which workspace-relative files to search. */
  include: (path: string) => boolean;
  signal: AbortSignal;
  /** The whole search ends by then, with what it found so far. */
  deadlineMs: number;
  maxMatches: number;
  maxFileBytes: number;
  maxVisited: number;
  /**
   * The files to search, workspace-relative and in walk order, when a faster lister (ripgrep) has
   * picked them; without it the workspace is walked. `include` and every read check apply either way.
   */
  candidates?: readonly string[];
}

export interface TextSearchResult {
  /** "path:line: text", in walk order. */
  matches: string[];
  searched: number;
  /** Stopped at maxMatches. */
  capped: boolean;
  /** Stopped at maxVisited files. */
  stoppedEarly: boolean;
  /** The deadline ended the search: the matches so far are returned. */
  timedOut: boolean;
}

const LIMITS = { maxTestedChars: 10_000, maxShownChars: 300 };
/** Files sent to the worker ahead of its replies, so reading and matching overlap. */
const IN_FLIGHT = 8;

export class PatternError extends Error {
  override readonly name = 'PatternError';
}

/** Rejects with the signal's reason when it aborts; otherwise resolves with the result. */
export async function searchFiles(request: TextSearchRequest): Promise<TextSearchResult> {
  const flags = request.caseSensitive ? 'u' : 'iu';
  try {
    new RegExp(request.pattern, flags); // compiling runs nothing: a syntax error is reported here, in words
  } catch (error) {
    throw new PatternError(`The pattern is not a valid regular expression: ${(error as Error).message}.`);
  }
  request.signal.throwIfAborted();
  const init: RegexWorkerInit = { pattern: request.pattern, flags, ...LIMITS };
  const worker = new Worker(regexWorkerSource(), { eval: true, workerData: init });
  const stopped = stopSignal(request.signal, request.deadlineMs);
  const replies: ((reply: RegexWorkerReply) => void)[] = [];
  let failure: Error | undefined;
  worker.on('message', (reply: RegexWorkerReply) => replies.shift()?.(reply));
  worker.on('error', (error) => (failure = error));
  const result: TextSearchResult = { matches: [], searched: 0, capped: false, stoppedEarly: false, timedOut: false };
  const reader = insideReader(request.root);
  // The walk spells paths from the root as given; the reader wants them from the real root.
  const realRoot = await realpath(request.root);
  // Files in order, each read and then matched by the worker; several at once, so reads and matching overlap.
  const inFlight: Promise<RegexWorkerReply>[] = [];
  const matchFile = async (path: string): Promise<RegexWorkerReply> => {
    const text = await reader.read(join(realRoot, path), request.maxFileBytes).catch(() => '');
    if (text === '' || text.slice(0, 8192).includes('\u0000')) return { matches: [] }; // empty, unreadable or binary
    result.searched++;
    const file: RegexWorkerFile = { path, text, limit: request.maxMatches + 1 };
    // The worker answers in the order it was sent; a file's place in the results is its place in the walk.
    const reply = new Promise<RegexWorkerReply>((resolve) => replies.push(resolve));
    worker.postMessage(file);
    return reply;
  };
  const take = async () => {
    const reply = await Promise.race([inFlight.shift()!, stopped.promise]);
    if (failure) throw failure;
    for (const match of reply.matches) {
      if (result.matches.length === request.maxMatches) {
        result.capped = true;
        return;
      }
      result.matches.push(match);
    }
  };
  try {
    const walk = request.candidates ? listedFiles(request.candidates, stopped.signal, request.maxVisited) : walkWorkspace(request.root, { signal: stopped.signal, maxFiles: request.maxVisited });
    let step = await Promise.race([walk.next(), stopped.promise]);
    for (; !step.done && !result.capped; step = await Promise.race([walk.next(), stopped.promise])) {
      if (!request.include(step.value)) continue;
      inFlight.push(matchFile(step.value));
      if (inFlight.length >= IN_FLIGHT) await take();
    }
    if (step.done && !step.value.complete) result.stoppedEarly = true;
    while (inFlight.length > 0 && !result.capped) await take();
    return result;
  } catch (error) {
    if (stopped.why === 'deadline') return { ...result, timedOut: true };
    throw error;
  } finally {
    stopped.dispose();
    void worker.terminate();
    await reader.close();
  }
}

/** A list of files as a walk: the same stop at `maxFiles`, the same cancel. */
export async function* listedFiles(files: readonly string[], signal: AbortSignal, maxFiles: number): AsyncGenerator<string, { complete: boolean }> {
  for (let i = 0; i < files.length; i++) {
    signal.throwIfAborted();
    if (i === maxFiles) return { complete: false };
    yield files[i]!;
  }
  return { complete: true };
}

/** A promise that rejects when the caller aborts or the deadline passes, and says which. */
function stopSignal(outer: AbortSignal, deadlineMs: number) {
  const controller = new AbortController();
  const state = { why: undefined as 'deadline' | 'aborted' | undefined };
  let reject: (reason: unknown) => void = () => {};
  const promise = new Promise<never>((_, r) => (reject = r));
  promise.catch(() => {}); // observed by whoever races it
  const stop = (why: 'deadline' | 'aborted', reason: unknown) => {
    if (state.why) return;
    state.why = why;
    controller.abort(reason);
    reject(reason);
  };
  const timer = setTimeout(() => stop('deadline', new Error('deadline')), deadlineMs);
  const onAbort = () => stop('aborted', outer.reason);
  outer.addEventListener('abort', onAbort, { once: true });
  return {
    promise,
    signal: controller.signal,
    get why() {
      return state.why;
    },
    dispose: () => {
      clearTimeout(timer);
      outer.removeEventListener('abort', onAbort);
    },
  };
}
