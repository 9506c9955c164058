import type { MessagePort } from 'node:worker_threads';

/**
 * The regular expression runs here, in a worker thread, so a pattern that backtracks for ever
 * (`(a+)+$` on a long line) stalls only this thread, which the caller terminates at its deadline
 * or on cancel. The host's event loop stays free.
 *
 * The worker is started from this function's source (`new Worker(source, { eval: true })`), so the
 * bundles need no separate file: the function must use nothing but its parameters and node's
 * globals. One worker serves search after search (regexWorkerPool.ts): each begins with the
 * pattern, then its files, as bytes: decoding them here keeps that off the caller's thread, and
 * bytes move to the worker without a copy where strings would be cloned.
 */

export interface RegexWorkerInit {
  pattern: string;
  flags: string;
  /** Longer lines are tested in part (minified code); matches are shown up to `maxShownChars`. */
  maxTestedChars: number;
  maxShownChars: number;
}

/** Main thread -> worker: a search begins (its files follow), or one file's text. */
export type RegexWorkerMessage = { search: RegexWorkerInit } | { file: RegexWorkerFile };

export interface RegexWorkerFile {
  path: string;
  /** The file's bytes, read as UTF-8 (each ill-formed sequence a U+FFFD, as node decodes). */
  bytes: Uint8Array;
  /** Stop after this many matches in this file. */
  limit: number;
}

/** Worker -> main thread: the matching lines of one file, in order, as "path:line: text" (none for a binary file). */
export interface RegexWorkerReply {
  matches: string[];
}

export function regexWorkerMain(port: Pick<MessagePort, 'on' | 'postMessage'>): void {
  let init: RegexWorkerInit = { pattern: '', flags: '', maxTestedChars: 0, maxShownChars: 0 };
  let re = new RegExp('');
  port.on('message', (message: RegexWorkerMessage) => {
    if ('search' in message) {
      init = message.search;
      re = new RegExp(init.pattern, init.flags);
      return;
    }
    const { file } = message;
    const matches: string[] = [];
    const read = Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength).toString('utf8');
    // Binary, as git judges it: a NUL early on. The editor shows no byte-order mark, and `^` should match after it.
    const text = read.slice(0, 8192).includes('\u0000') ? '' : read.startsWith('\uFEFF') ? read.slice(1) : read;
    // Line by line as `text.split(/\r?\n/)` cuts it, without making every line at once: each is sliced to what is
    // tested (a long line's first characters), so a large file costs little more than the regular expression.
    for (let start = 0, n = 1; text !== '' && start <= text.length && matches.length < file.limit; n++) {
      const lf = text.indexOf('\n', start);
      const end = lf < 0 ? text.length : lf > start && text.charCodeAt(lf - 1) === 13 ? lf - 1 : lf;
      const line = text.slice(start, Math.min(end, start + init.maxTestedChars));
      re.lastIndex = 0;
      // The indentation stays: a model that reads code through its matches needs the code's shape (Python, YAML).
      if (re.test(line)) matches.push(`${file.path}:${n}: ${line.trimEnd().slice(0, init.maxShownChars)}`);
      start = lf < 0 ? text.length + 1 : lf + 1;
    }
    const reply: RegexWorkerReply = { matches };
    port.postMessage(reply);
  });
}

/** The worker's whole program: worker_threads is the one module it takes from node. */
export function regexWorkerSource(): string {
  return `const { parentPort } = require('node:worker_threads');\n(${regexWorkerMain.toString()})(parentPort);\n`;
}
