import type { MessagePort } from 'node:worker_threads';

/**
 * The regular expression runs here, in a worker thread, so a pattern that backtracks for ever
 * (`(a+)+$` on a long line) stalls only this thread, which the caller terminates at its deadline
 * or on cancel. The host's event loop stays free.
 *
 * The worker is started from this function's source (`new Worker(source, { eval: true })`), so the
 * bundles need no separate file: the function must use nothing but its parameters. One worker
 * serves search after search (regexWorkerPool.ts): each begins with the pattern, then its files.
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
  text: string;
  /** Stop after this many matches in this file. */
  limit: number;
}

/** Worker -> main thread: the matching lines of one file, in order, as "path:line: text". */
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
    const lines = file.text.split(/\r?\n/);
    for (let i = 0; i < lines.length && matches.length < file.limit; i++) {
      const whole = lines[i]!;
      const line = whole.length > init.maxTestedChars ? whole.slice(0, init.maxTestedChars) : whole;
      re.lastIndex = 0;
      if (re.test(line)) matches.push(`${file.path}:${i + 1}: ${line.trim().slice(0, init.maxShownChars)}`);
    }
    const reply: RegexWorkerReply = { matches };
    port.postMessage(reply);
  });
}

/** The worker's whole program: worker_threads is the one thing it takes from node. */
export function regexWorkerSource(): string {
  return `const { parentPort } = require('node:worker_threads');\n(${regexWorkerMain.toString()})(parentPort);\n`;
}
