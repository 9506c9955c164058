import type { MessagePort } from 'node:worker_threads';

/**
 * The regular expression runs here, in a worker thread, so a pattern that backtracks for ever
 * (`(a+)+$` on a long line) stalls only this thread, which the caller terminates at its deadline
 * or on cancel. The host's event loop stays free.
 *
 * The worker is started from this function's source (`new Worker(source, { eval: true })`), so the
 * bundles need no separate file: the function must use nothing but its parameters.
 */

export interface RegexWorkerInit {
  pattern: string;
  flags: string;
  /** Longer lines are tested in part (minified code); matches are shown up to `maxShownChars`. */
  maxTestedChars: number;
  maxShownChars: number;
}

/** Main thread -> worker: one file's text. */
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

export function regexWorkerMain(port: Pick<MessagePort, 'on' | 'postMessage'>, init: RegexWorkerInit): void {
  const re = new RegExp(init.pattern, init.flags);
  port.on('message', (file: RegexWorkerFile) => {
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
  return `const { parentPort, workerData } = require('node:worker_threads');\n(${regexWorkerMain.toString()})(parentPort, workerData);\n`;
}
