import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_SETTINGS } from '../src/core/config/settings/engineSettings';
import { runProcess } from '../src/core/access/sandbox/runProcess';
import { commandLauncher } from '../src/core/access/sandbox/commandLauncher';
import { formatMs, summarize } from './stats';

/** `npm run bench`'s command figures: `true` from launch to result, plain and in the OS sandbox. */
export async function commandBench(runs = 20): Promise<string[]> {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'subagents-bench-cmd-')));
  try {
    const lines: string[] = [];
    for (const mode of ['off', 'on'] as const) {
      const launcher = commandLauncher(root, { ...DEFAULT_SETTINGS, 'sandbox.mode': mode }, () => {});
      const state = await launcher.state();
      if (state.refusal) {
        lines.push(`Command in the sandbox: not measured (${state.refusal})`);
        continue;
      }
      const samples: number[] = [];
      for (let i = 0; i < runs + 2; i++) {
        const start = performance.now();
        const prepared = await launcher.prepare('true', { sandboxed: state.sandboxed, hardenGit: true });
        await runProcess({
          command: 'true',
          launch: prepared.launch,
          cwd: root,
          timeoutMs: 30_000,
          signal: new AbortController().signal,
          maxOutputChars: 1000,
          label: 'bench',
        });
        prepared.release();
        if (i >= 2) samples.push(performance.now() - start);
      }
      lines.push(
        `Command \`true\`, launch to result, ${state.sandboxed ? 'in the OS sandbox' : 'plain shell'}: ${formatMs(summarize(samples))} over ${runs} runs`,
      );
    }
    return lines;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
