import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_SETTINGS } from '../src/core/config/settings/engineSettings';
import { commandLauncher } from '../src/core/access/sandbox/commandLauncher';
import { runHookIn } from '../src/core/access/hooks/hookLaunch';
import type { HookDeclaration } from '../src/core/config/hooks/hookDeclarations';
import { formatMs, summarize } from './stats';

/**
 * `npm run bench`'s hook figures: a PostToolUse hook that reads its stdin (`cat >/dev/null`), from
 * start to verdict, as the user's hook outside the sandbox (subagents.sandbox.userHooksOutside) and
 * as every hook runs by default, in the OS sandbox: what each tool call of a hooked run pays.
 */
export async function hookBench(runs = 20): Promise<string[]> {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'subagents-bench-hook-')));
  const hook: HookDeclaration = { event: 'PostToolUse', command: 'cat >/dev/null', timeoutSec: 30, scope: 'user', source: 'bench' };
  const input = { tool_name: 'Edit', tool_input: { file_path: join(root, 'a.ts') } };
  try {
    const launcher = commandLauncher(root, { ...DEFAULT_SETTINGS, 'sandbox.mode': 'auto' }, () => {});
    const lines: string[] = [];
    for (const outside of [true, false]) {
      const samples: number[] = [];
      let where = outside ? 'outside the sandbox' : 'in the OS sandbox';
      for (let i = 0; i < runs + 2; i++) {
        const start = performance.now();
        const run = await runHookIn(
          { cwd: root, commands: launcher, signal: new AbortController().signal, userHooksOutside: outside },
          hook,
          input,
          30_000,
        );
        if ('refused' in run) return [`Hook, start to verdict: not measured (${run.refused})`];
        if (!outside && !run.sandboxed) where = `unsandboxed (no sandbox here: ${run.unsandboxed ?? 'unknown'})`;
        if (i >= 2) samples.push(performance.now() - start);
      }
      lines.push(`Hook \`cat >/dev/null\`, start to verdict, ${where}: ${formatMs(summarize(samples))} over ${runs} runs`);
    }
    return lines;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
