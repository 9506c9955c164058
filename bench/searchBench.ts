import { execFile } from 'node:child_process';
import type { z } from 'zod';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DEFAULT_SETTINGS } from '../src/core/engineSettings';
import { nodeWorkspace } from '../src/core/nodeAdapters/nodeWorkspace';
import { ripgrepOnPath } from '../src/core/ripgrep/locateRipgrep';
import { FileChanges } from '../src/core/changes/fileChanges';
import { MemorySnapshotStore } from '../src/core/changes/snapshotStore';
import { commandLauncher } from '../src/core/sandbox/commandLauncher';
import type { ApprovalGate } from '../src/core/tools/approvalGate';
import { workspaceTools } from '../src/core/tools/workspaceTools';
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

/** `npm run bench`'s search figures: search_text and find_files through the tool, with ripgrep and with the walker, beside plain `rg`. */
export async function searchBench(runs = 10, files = 10_000): Promise<string[]> {
  const rg = ripgrepOnPath();
  if (!rg) return ['Search: not measured (no `rg` on the PATH; `apt-get install ripgrep`)'];
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'subagents-bench-search-')));
  try {
    makeTree(root, files);
    const gate: ApprovalGate = { check: async () => ({ ok: true, asked: false }), readAsks: () => false };
    const commands = commandLauncher(root, { ...DEFAULT_SETTINGS, 'sandbox.mode': 'off' }, () => {});
    const tool = (withRipgrep: boolean, name: string) => {
      const workspace = nodeWorkspace({ root, ...(withRipgrep ? { ripgrep: rg } : {}) });
      const files = new FileChanges(new MemorySnapshotStore()).forRun({ runId: 'r', agent: 'bench', workspace, emit: () => {} });
      return workspaceTools({ workspace, gate, agent: 'bench', commands, files }).find((t) => t.name === name)!;
    };
    const call = (withRipgrep: boolean, name: string, input: unknown) => async () => {
      const spec = tool(withRipgrep, name);
      await spec.execute((spec.inputSchema as z.ZodType).parse(input), { runId: 'r', threadId: 't', toolCallId: 'c', signal: new AbortController().signal });
    };
    const plain = (args: string[]) => async () => {
      await run(rg, ['--no-config', '--hidden', ...args, '.'], { cwd: root, maxBuffer: 64 * 1024 * 1024 }).catch((e: { code?: number }) => {
        if (e.code !== 1) throw e;
      });
    };
    const pattern = 'function \\w+Tool';
    const dotted = 'Needle.*return 5';
    // Plain rg runs the same search as the tool: the tool ignores letter case unless told not to.
    const cases = [
      { what: `search_text "${pattern}" (ignoring case)`, columns: [plain(['-n', '-i', pattern]), call(true, 'search_text', { pattern }), call(false, 'search_text', { pattern })] },
      { what: `search_text "${pattern}" caseSensitive`, columns: [plain(['-n', pattern]), call(true, 'search_text', { pattern, caseSensitive: true }), call(false, 'search_text', { pattern, caseSensitive: true })] },
      { what: `search_text "${dotted}"`, columns: [plain(['-n', '-i', dotted]), call(true, 'search_text', { pattern: dotted }), call(false, 'search_text', { pattern: dotted })] },
      { what: 'find_files "file77*"', columns: [plain(['--files', '-g', 'file77*']), call(true, 'find_files', { pattern: 'file77*' }), call(false, 'find_files', { pattern: 'file77*' })] },
      { what: 'find_files "**/*.ts" (500 shown)', columns: [plain(['--files', '-g', '*.ts']), call(true, 'find_files', { pattern: '**/*.ts' }), call(false, 'find_files', { pattern: '**/*.ts' })] },
    ];
    const rows = [['tool', 'plain rg', 'tool with ripgrep', '/rg', 'tool, walker fallback', '/rg']];
    for (const { what, columns } of cases) {
      for (const column of columns) await column();
      const samples: number[][] = columns.map(() => []);
      // Alternating, so noise from the rest of the machine hits every column alike.
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
    return [`Search on a generated tree of ${files} files (+2,000 ignored in node_modules), ${runs} runs each, medians (min–max):`, table(rows)];
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
