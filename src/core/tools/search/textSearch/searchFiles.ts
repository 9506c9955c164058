import { realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { insideReader } from '../../../platform/files/readInside';
import { walkWorkspace } from '../../../platform/files/workspaceFiles';
import type { RegexWorkerInit, RegexWorkerReply } from './regexWorker';
import { spreadOverWorkers } from './workerSpread';

/**
 * Searches the workspace's text with a JavaScript regular expression: the walk and the reads stay
 * on the caller's thread (async), the matching runs in workers (regexWorker.ts; a second one when
 * there is much to match: workerSpread.ts) that are terminated at the deadline or when the signal
 * aborts, so no pattern can stall the host (a search that ends well leaves its workers warm for
 * the next: regexWorkerPool.ts).
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
   * A faster searcher (ripgrep), asked while the worker starts, within the deadline; when it has no
   * answer (undefined), or there is none, the workspace is walked.
   */
  prefilter?: (signal: AbortSignal) => Promise<PrefilteredFiles | undefined>;
}

/**
 * The walk done by a faster searcher: the files the walk would visit, workspace-relative and in
 * its order, and those among them with a line the pattern may match. The visit cap, `include` and
 * the count of files searched run over `files` as over a walk; only the `mayMatch` files are read
 * (every other one would be read and show nothing), with every read check.
 */
export interface PrefilteredFiles {
  files: readonly string[];
  mayMatch: ReadonlySet<string>;
}

export interface TextSearchResult {
  /** "path:line: text", in walk order. */
  matches: string[];
  /** Files visited that `include` took (binary, empty and unreadable ones too: not all are read). */
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
const NO_MATCHES: RegexWorkerReply = { matches: [] };

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
  // The walk spells paths from the root as given; the reader wants them from the real root.
  const realRoot = await realpath(request.root);
  const init: RegexWorkerInit = { pattern: request.pattern, flags, ...LIMITS };
  const worker = spreadOverWorkers(init);
  const stopped = stopSignal(request.signal, request.deadlineMs);
  const result: TextSearchResult = { matches: [], searched: 0, capped: false, stoppedEarly: false, timedOut: false };
  const reader = insideReader(request.root);
  // Files in order, each read and then matched by the worker; several at once, so reads and matching overlap.
  // A file that need not be read holds its place with an answer at hand, so the walk stops where the walker's would.
  const inFlight: (Promise<RegexWorkerReply> | RegexWorkerReply)[] = [];
  const matchFile = async (path: string): Promise<RegexWorkerReply> => {
    const bytes = await reader.readBytes(join(realRoot, path), request.maxFileBytes).catch(() => undefined);
    if (!bytes?.length) return NO_MATCHES; // empty or unreadable; the worker judges what is binary
    // The worker answers in the order it was sent; a file's place in the results is its place in the walk.
    return worker.match({ path, bytes, limit: request.maxMatches + 1 });
  };
  const take = async (next: Promise<RegexWorkerReply> | RegexWorkerReply) => {
    const reply = await Promise.race([next, stopped.promise]);
    if (worker.failure) throw worker.failure;
    for (const match of reply.matches) {
      if (result.matches.length === request.maxMatches) {
        result.capped = true;
        return;
      }
      result.matches.push(match);
    }
  };
  /** One file of the walk; a promise when its turn means waiting for an earlier file's matches. */
  const visit = (path: string, mayMatch: ReadonlySet<string> | undefined): Promise<void> | undefined => {
    if (!request.include(path)) return undefined;
    result.searched++;
    inFlight.push(mayMatch && !mayMatch.has(path) ? NO_MATCHES : matchFile(path));
    if (inFlight.length < IN_FLIGHT) return undefined;
    const oldest = inFlight.shift()!;
    return oldest === NO_MATCHES ? undefined : take(oldest);
  };
  try {
    const prefiltered = request.prefilter ? await Promise.race([request.prefilter(stopped.signal), stopped.promise]) : undefined;
    if (prefiltered) {
      // A plain loop: no step of the list waits, except for the matches of a file that was read.
      const { files, mayMatch } = prefiltered;
      const visited = Math.min(files.length, request.maxVisited);
      for (let i = 0; i < visited && !result.capped; i++) {
        const waiting = visit(files[i]!, mayMatch);
        if (waiting) await waiting;
      }
      if (files.length > request.maxVisited) result.stoppedEarly = true;
    } else {
      const walk = walkWorkspace(request.root, { signal: stopped.signal, maxFiles: request.maxVisited });
      let step = await Promise.race([walk.next(), stopped.promise]);
      for (; !step.done && !result.capped; step = await Promise.race([walk.next(), stopped.promise])) {
        const waiting = visit(step.value, undefined);
        if (waiting) await waiting;
      }
      if (step.done && !step.value.complete) result.stoppedEarly = true;
    }
    while (inFlight.length > 0 && !result.capped) {
      const oldest = inFlight.shift()!;
      if (oldest !== NO_MATCHES) await take(oldest);
    }
    return result;
  } catch (error) {
    if (stopped.why === 'deadline') return { ...result, timedOut: true };
    throw error;
  } finally {
    stopped.dispose();
    worker.release();
    await reader.close();
  }
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
