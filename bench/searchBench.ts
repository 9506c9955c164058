import { execFile } from 'node:child_process';
import type { z } from 'zod';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DEFAULT_SETTINGS } from '../src/core/config/settings/engineSettings';
import { nodeWorkspace } from '../src/core/engine/nodeWorkspace';
import { runProcess } from '../src/core/access/sandbox/runProcess';
import type { Spawner } from '../src/core/platform/processes/spawner';
import { ripgrepOnPath } from '../src/core/tools/search/ripgrep/locateRipgrep';
import { FileChanges } from '../src/core/changes/attribution/fileChanges';
import { MemorySnapshotStore } from '../src/core/changes/attribution/snapshotStore';
import { commandLauncher } from '../src/core/access/sandbox/commandLauncher';
import type { ApprovalGate } from '../src/core/tools/approvalGate';
import { workspaceTools } from '../src/core/tools/workspaceTools';
import { emptyTotals, perRun, profileByOrigin } from './cpuProfile';
import { largeHostSearch, type LauncherCase } from './largeHostSearch';
import { spawnCost } from './spawnCost';
import { formatMs, summarize, table } from './stats';

const run = promisify(execFile);

/** A tree of `files` source files in 100 folders, plus an ignored node_modules the search must not enter. */
function makeTree(root: string, files: number): void {
  writeFileSync(join(root, '.gitignore'), 'node_modules/\n*.log\n');
  const body = Array.from({ length: 60 }, (_, i) => `export const value${i} = compute(${i}); // an ordinary line of code`).join('\n');
  for (let i = 0; i < files; i++) {
    const dir = join(root, 'packages', `pkg${i % 100}`, 'src');
    mkdirSync(dir, { recursive: true });
    const special = i % 500 === 0 ? `\nexport function findNeedleTool() { return ${i}; }\n` : '\n';
    writeFileSync(join(dir, `file${i}.${i % 3 === 0 ? 'md' : 'ts'}`), `${body}${special}`);
  }
  mkdirSync(join(root, 'node_modules', 'dep'), { recursive: true });
  for (let i = 0; i < 2000; i++) writeFileSync(join(root, 'node_modules', 'dep', `m${i}.js`), 'function findNeedleTool() {}\n');
}

/** A tool call on the generated tree, with ripgrep or with the walker, and plain `rg` on it. */
interface SearchTree {
  call(withRipgrep: boolean, name: string, input: unknown): () => Promise<void>;
  plain(args: string[]): () => Promise<void>;
  /** The same, started by `spawner` (a small process's, as a shell would start it). */
  plainBy(spawner: Spawner, args: string[]): () => Promise<void>;
}

const PLAIN_RULES = ['--no-config', '--hidden', '--no-require-git'];

/** Runs `body` on the tree at `root`, as it is. */
async function onTree<T>(rg: string, root: string, body: (tree: SearchTree) => Promise<T>): Promise<T> {
  const gate: ApprovalGate = { check: async () => ({ ok: true, asked: false }), readAsks: () => false };
  const commands = commandLauncher(root, { ...DEFAULT_SETTINGS, 'sandbox.mode': 'off' }, () => {});
  const tool = (withRipgrep: boolean, name: string) => {
    const workspace = nodeWorkspace({ root, ...(withRipgrep ? { ripgrep: rg } : {}) });
    const files = new FileChanges(new MemorySnapshotStore()).forRun({ runId: 'r', agent: 'bench', workspace, emit: () => {} });
    return workspaceTools({ workspace, gate, agent: 'bench', commands, files }).find((t) => t.name === name)!;
  };
  return body({
    call: (withRipgrep, name, input) => async () => {
      const spec = tool(withRipgrep, name);
      await spec.execute((spec.inputSchema as z.ZodType).parse(input), {
        runId: 'r',
        threadId: 't',
        toolCallId: 'c',
        signal: new AbortController().signal,
      });
    },
    // As a user would run it in that folder, with the tool's rules for ignore files (a folder that is no repository keeps its .gitignore rules).
    plain: (args) => async () => {
      await run(rg, [...PLAIN_RULES, ...args, '.'], { cwd: root, maxBuffer: 256 * 1024 * 1024 }).catch((e: { code?: number }) => {
        if (e.code !== 1) throw e;
      });
    },
    plainBy: (spawner, args) => async () => {
      const out: Buffer[] = [];
      const env = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined));
      const launch = { file: rg, args: [...PLAIN_RULES, ...args, '.'], env };
      const request = {
        command: 'rg',
        launch,
        cwd: root,
        timeoutMs: 60_000,
        signal: new AbortController().signal,
        maxOutputChars: 4000,
        label: 'plain rg',
      };
      const result = await runProcess(request, undefined, { spawner, onStdout: (chunk) => out.push(chunk) });
      if (result.exitCode !== 0 && result.exitCode !== 1) throw new Error(`plain rg ended with ${result.exitCode}: ${result.output}`);
    },
  });
}

/** Runs `body` on a generated tree of `files` files, removed after. */
async function onSearchTree<T>(rg: string, files: number, body: (tree: SearchTree) => Promise<T>): Promise<T> {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'subagents-bench-search-')));
  try {
    makeTree(root, files);
    return await onTree(rg, root, body);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** One row: plain rg, the tool with ripgrep, the tool walking. */
interface SearchCase {
  what: string;
  columns: (() => Promise<void>)[];
}

/** search_text through the tool (which ignores letter case unless told not to) beside the same search by plain rg. */
function searchCase({ call, plain }: SearchTree, pattern: string, caseSensitive = false, label = ''): SearchCase {
  const input = caseSensitive ? { pattern, caseSensitive } : { pattern };
  const rgArgs = caseSensitive ? ['-n', pattern] : ['-n', '-i', pattern];
  return {
    what: `search_text "${pattern}"${label}`,
    columns: [plain(rgArgs), call(true, 'search_text', input), call(false, 'search_text', input)],
  };
}

function findCase({ call, plain }: SearchTree, pattern: string, rgGlob: string, label = ''): SearchCase {
  return {
    what: `find_files "${pattern}"${label}`,
    columns: [plain(['--files', '-g', rgGlob]), call(true, 'find_files', { pattern }), call(false, 'find_files', { pattern })],
  };
}

/** The generated tree's rows (kept as they were, to compare with earlier figures). */
function generatedCases(tree: SearchTree): SearchCase[] {
  return [
    searchCase(tree, 'function \\w+Tool', false, ' (ignoring case)'),
    searchCase(tree, 'function \\w+Tool', true, ' caseSensitive'),
    searchCase(tree, 'Needle.*return 5'),
    findCase(tree, 'file77*', 'file77*'),
    findCase(tree, '**/*.ts', '*.ts', ' (500 shown)'),
  ];
}

/** A real tree's rows: a rare match, one in every file read to the end (none), one that fills the cap early, and listings. */
function realCases(tree: SearchTree): SearchCase[] {
  return [
    searchCase(tree, 'function \\w+Tool', false, ' (ignoring case)'),
    searchCase(tree, 'function \\w+Tool', true, ' caseSensitive'),
    searchCase(tree, 'no line holds this 7f3a', false, ' (no match)'),
    searchCase(tree, 'streamText', true, ' (200 shown)'),
    findCase(tree, 'package.json', 'package.json'),
    findCase(tree, '**/*.ts', '*.ts', ' (500 shown)'),
  ];
}

/** Each row's columns run alternately, so noise from the rest of the machine hits every column alike. */
async function measureCases(cases: SearchCase[], runs: number): Promise<string> {
  const rows = [['tool', 'plain rg', 'tool with ripgrep', '/rg', 'tool, walker fallback', '/rg']];
  for (const { what, columns } of cases) {
    for (const column of columns) await column();
    const samples: number[][] = columns.map(() => []);
    for (let i = 0; i < runs; i++) {
      for (const [c, column] of columns.entries()) {
        const start = performance.now();
        await column();
        samples[c]!.push(performance.now() - start);
      }
    }
    const [p, r, w] = samples.map(summarize);
    const ratio = (s: typeof p) => `${(s!.median / p!.median).toFixed(1)} x`;
    rows.push([what, formatMs(p!), formatMs(r!), ratio(r), formatMs(w!), ratio(w)]);
  }
  return table(rows);
}

/** The rows the process launcher is measured on: both tools, a search with few candidates and a listing. */
function launcherCases({ call, plainBy }: SearchTree, listing: string): LauncherCase[] {
  const plain = (args: string[]) => (spawner: Spawner) => plainBy(spawner, args);
  return [
    {
      what: 'search_text "function \\w+Tool" (ignoring case)',
      plain: plain(['-n', '-i', 'function \\w+Tool']),
      tool: call(true, 'search_text', { pattern: 'function \\w+Tool' }),
    },
    {
      what: 'search_text "no line holds this 7f3a"',
      plain: plain(['-n', '-i', 'no line holds this 7f3a']),
      tool: call(true, 'search_text', { pattern: 'no line holds this 7f3a' }),
    },
    {
      what: `find_files "${listing}"`,
      plain: plain(['--files', '-g', listing.replace('**/', '')]),
      tool: call(true, 'find_files', { pattern: listing }),
    },
  ];
}

const NOT_MEASURED = 'Search: not measured (no `rg` on the PATH; `apt-get install ripgrep`)';

/** `npm run bench`'s search figures: search_text and find_files through the tool, with ripgrep and with the walker, beside plain `rg`. */
export async function searchBench(runs = 10, files = 10_000): Promise<string[]> {
  const rg = ripgrepOnPath();
  if (!rg) return [NOT_MEASURED];
  return onSearchTree(rg, files, async (tree) => [
    `Search on a generated tree of ${files} files (+2,000 ignored in node_modules), ${runs} runs each, medians (min–max):`,
    await measureCases(generatedCases(tree), runs),
    // Before spawnCost, whose ballast stays resident once freed: this one's small process must be small.
    ...(await largeHostSearch(launcherCases(tree, 'file77*'), runs)),
    await spawnCost(rg),
  ]);
}

/** `npm run bench -- --search --tree DIR`: the same beside plain `rg` on a real folder (`what` says what it holds). */
export async function searchTreeBench(root: string, what: string, runs = 10): Promise<string[]> {
  const rg = ripgrepOnPath();
  if (!rg) return [NOT_MEASURED];
  return onTree(rg, realpathSync(root), async (tree) => [
    `Search on ${root} (${what}), ${runs} runs each, medians (min–max):`,
    await measureCases(realCases(tree), runs),
    ...(await largeHostSearch(launcherCases(tree, '**/*.ts'), runs)),
    await spawnCost(rg),
  ]);
}

/**
 * `npm run bench -- --search --profile`: where the CPU time of a tool call with ripgrep goes, by
 * origin (ripgrep itself runs in its own process: what is left is the tool's own cost).
 */
export async function searchProfile(runs = 40, root?: string): Promise<string[]> {
  const rg = ripgrepOnPath();
  if (!rg) return [NOT_MEASURED];
  const profiled = async ({ call }: SearchTree) => {
    const lines: string[] = [];
    const calls: [string, () => Promise<void>][] = [
      ['search_text "function \\w+Tool"', call(true, 'search_text', { pattern: 'function \\w+Tool' })],
      ['search_text "no line holds this 7f3a"', call(true, 'search_text', { pattern: 'no line holds this 7f3a' })],
      root
        ? ['find_files "**/*.ts"', call(true, 'find_files', { pattern: '**/*.ts' })]
        : ['find_files "file77*"', call(true, 'find_files', { pattern: 'file77*' })],
    ];
    for (const [what, scenario] of calls) {
      for (let i = 0; i < 5; i++) await scenario();
      const totals = emptyTotals();
      await profileByOrigin(
        async () => {
          await scenario();
          return what;
        },
        runs,
        totals,
      );
      const buckets = perRun(totals.buckets, totals.runs);
      const busy = buckets.filter(([b]) => !b.startsWith('idle')).reduce((sum, [, v]) => sum + v, 0);
      const rows = [['where', 'ms per call']];
      for (const [bucket, v] of buckets.slice(0, 12)) rows.push([bucket, v.toFixed(2)]);
      const ours = perRun(totals.ours, totals.runs)
        .slice(0, 6)
        .map(([f, v]) => `${f} ${(v * 1000).toFixed(0)} µs`);
      lines.push(
        `\nCPU profile, ${what} with ripgrep, ${runs} calls: ${(totals.wallMs / runs).toFixed(1)} ms a call (profiler on), ${busy.toFixed(2)} ms of it on this process's CPU:`,
        table(rows),
      );
      if (ours.length) lines.push(`Our hottest functions (self time a call): ${ours.join('; ')}`);
    }
    return lines;
  };
  return root ? onTree(rg, realpathSync(root), profiled) : onSearchTree(rg, 10_000, profiled);
}
