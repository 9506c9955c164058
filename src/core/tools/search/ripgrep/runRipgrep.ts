import { runProcess } from '../../../access/sandbox/runProcess';
import { launcherSpawn } from '../../../platform/processLauncher/sharedLauncher';

/** How to run the ripgrep binary for one search. */
export interface RipgrepRun {
  /** The binary (locateRipgrep.ts). */
  rg: string;
  /** The workspace root: ripgrep runs there and paths come back relative to it. */
  root: string;
  /** The environment of agents' commands (the product's keys stripped). */
  env: Record<string, string>;
  signal: AbortSignal;
  timeoutMs: number;
}

/** Workspace-relative paths in the order ripgrep found them (walkOrder.ts sorts them), or why ripgrep could not answer (the caller falls back to the walker). */
export type RipgrepAnswer = { files: string[] } | { failure: string };

/**
 * What walkWorkspace honours and nothing more: `.gitignore` files at every level inside the
 * workspace (a repository or not), hidden files, no `.ignore`/`.rgignore`, no global or
 * `.git/info/exclude` rules, no rules from above the workspace, no user config, the `.git`
 * folder skipped (a `.git` file is listed, as the walker lists it), links not followed (the default).
 */
export const WALKER_RULES = [
  '--no-config',
  '--hidden',
  '--no-require-git',
  '--no-ignore-parent',
  '--no-ignore-global',
  '--no-ignore-exclude',
  '--no-ignore-dot',
  '--glob',
  '!.git/',
  '--no-messages',
  '--null',
] as const;

const MAX_STDOUT_BYTES = 64 * 1024 * 1024;

/**
 * Every file the walker would visit. `sorted`: ripgrep walks on one thread, each folder's entries
 * by name, so that the walk order takes little more to sort (a folder's files come in order).
 */
export function ripgrepFiles(run: RipgrepRun, sorted = false): Promise<RipgrepAnswer> {
  // No path: ripgrep lists the folder it runs in, each path without the `./` a `.` would put before it (one string less a file).
  return runRipgrep(run, [...WALKER_RULES, ...(sorted ? ['--sort', 'path'] : []), '--files']);
}

export interface RipgrepMatchQuery {
  /** For ripgrep (ripgrepPattern.ts), not the JavaScript one. */
  pattern: string;
  caseSensitive: boolean;
  /** Larger files are skipped, as the walker's reader skips them. */
  maxFileBytes: number;
}

/**
 * The files with a line the pattern matches: a superset of those the JavaScript matcher will
 * confirm (see ripgrepPattern.ts), searched as raw bytes whatever they hold (the matcher decides
 * what is binary; no transcoding after a byte-order mark, as node reads none), CRLF line ends
 * read as the matcher reads them.
 */
export function ripgrepMatchingFiles(run: RipgrepRun, query: RipgrepMatchQuery): Promise<RipgrepAnswer> {
  return runRipgrep(run, [
    ...WALKER_RULES,
    '--files-with-matches',
    '--text',
    '--encoding',
    'none',
    '--crlf',
    query.caseSensitive ? '--case-sensitive' : '--ignore-case',
    '--max-filesize',
    String(query.maxFileBytes),
    '--regexp',
    query.pattern,
    '.',
  ]);
}

async function runRipgrep(run: RipgrepRun, args: string[]): Promise<RipgrepAnswer> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  let tooMuch = false;
  const stop = new AbortController();
  const signal = AbortSignal.any([run.signal, stop.signal]);
  const result = await runProcess(
    {
      command: `rg ${args.join(' ')}`,
      launch: { file: run.rg, args, env: run.env },
      cwd: run.root,
      timeoutMs: run.timeoutMs,
      signal,
      maxOutputChars: 4000,
      label: 'ripgrep',
    },
    undefined,
    {
      // Started by the small launcher process (src/core/platform/processLauncher/): a fork of the extension host would cost this thread up to 20 ms a start.
      spawner: launcherSpawn,
      onStdout: (chunk) => {
        bytes += chunk.length;
        if (bytes > MAX_STDOUT_BYTES) {
          tooMuch = true;
          stop.abort();
        } else chunks.push(chunk);
      },
    },
  ).catch((error: unknown) => ({ failure: `ripgrep could not start (${(error as Error).message})` }));
  if ('failure' in result) return result;
  run.signal.throwIfAborted();
  if (tooMuch) return { failure: `ripgrep listed more than ${MAX_STDOUT_BYTES} bytes of paths` };
  if (result.timedOut) return { failure: `ripgrep did not finish within ${run.timeoutMs} ms` };
  const stderr = result.output.trim();
  // 1: nothing found. 2 without a message: some file could not be read (--no-messages), as the walker skips it.
  if (result.exitCode !== 0 && result.exitCode !== 1 && !(result.exitCode === 2 && stderr === '')) {
    return {
      failure: `ripgrep ended with ${result.exitCode === null ? 'a signal' : `exit code ${result.exitCode}`}${stderr ? `: ${stderr.split('\n', 1)[0]}` : ''}`,
    };
  }
  const files = Buffer.concat(chunks).toString('utf8').split('\0');
  files.pop(); // after the last NUL
  return { files: process.platform === 'win32' || files[0]?.startsWith('./') ? files.map(workspaceRelative) : files };
}

/** `./src/a.ts` (or `.\src\a.ts` on Windows) as the walker spells it: `src/a.ts`. */
function workspaceRelative(path: string): string {
  const slashed = process.platform === 'win32' ? path.replace(/\\/g, '/') : path;
  return slashed.startsWith('./') ? slashed.slice(2) : slashed;
}
