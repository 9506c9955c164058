import type { Spawner } from '../src/core/platform/processes/spawner';
import { ProcessLauncher } from '../src/core/platform/processLauncher/processLauncher';
import { setProcessLauncherEnabled, sharedProcessLauncher } from '../src/core/platform/processLauncher/sharedLauncher';
import { formatMs, summarize, table } from './stats';

/** A tool call (search_text or find_files through the real tool, as searchBench.ts makes them) and the same search by plain rg. */
export interface LauncherCase {
  what: string;
  /** Plain rg, started by `spawner`. */
  plain: (spawner: Spawner) => () => Promise<void>;
  tool: () => Promise<void>;
}

const TARGET_RSS_MB = 500;

/**
 * Ballast touched page by page (as spawnCost.ts does), until this process holds `mb` MB resident: a
 * fork has it all to copy the page tables of. In pieces of 64 MiB, over the most glibc ever serves
 * from its heap (32 MiB), so each is a mapping of its own that goes back to the system once freed.
 */
function inflateTo(mb: number): Buffer[] {
  const ballast: Buffer[] = [];
  while (process.memoryUsage().rss < mb * 1e6) ballast.push(Buffer.alloc(64 * 1024 * 1024, 1));
  return ballast;
}

/** Frees what ballast was let go (the bench runs with --expose-gc), so that the small process is small again. */
function collect(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

const rssMb = () => (process.memoryUsage().rss / 1e6).toFixed(0);

async function timed(body: () => Promise<void>): Promise<number> {
  const start = performance.now();
  await body();
  return performance.now() - start;
}

/**
 * Each case's tool call with ripgrep started directly (the code before the process launcher) and
 * by the launcher (src/core/platform/processLauncher/), beside plain rg, the three turn about so that the
 * machine's noise hits them alike. Plain rg is started by a small process of its own (as a shell
 * would start it): from this one, its start would pay the fork the tool no longer pays.
 */
async function measure(cases: LauncherCase[], runs: number, shell: Spawner): Promise<string> {
  const rows = [['tool', 'plain rg', 'spawned directly', '/rg', 'by the launcher', '/rg']];
  for (const { what, plain, tool } of cases) {
    const columns = [
      plain(shell),
      async () => {
        setProcessLauncherEnabled(false);
        await tool();
      },
      async () => {
        setProcessLauncherEnabled(true);
        await tool();
      },
    ];
    for (const column of columns) await column();
    const samples: number[][] = columns.map(() => []);
    for (let i = 0; i < runs; i++) for (const [c, column] of columns.entries()) samples[c]!.push(await timed(column));
    const [p, d, l] = samples.map(summarize);
    const ratio = (s: typeof p) => `${(s!.median / p!.median).toFixed(2)} x`;
    rows.push([what, formatMs(p!), formatMs(d!), ratio(d), formatMs(l!), ratio(l)]);
  }
  setProcessLauncherEnabled(true);
  return table(rows);
}

/** `npm run bench -- --search`'s launcher rows: the tool in a small process, then in one of about 500 MB resident (an extension host's size). */
export async function largeHostSearch(cases: LauncherCase[], runs: number): Promise<string[]> {
  collect();
  const shell = new ProcessLauncher();
  try {
    const smallMb = rssMb();
    const small = await measure(cases, runs, shell.spawn);
    const ballast = inflateTo(TARGET_RSS_MB);
    const largeMb = rssMb();
    const large = await measure(cases, runs, shell.spawn);
    ballast.length = 0;
    collect();
    return [
      `Ripgrep started directly or by the process launcher, beside plain rg started by a small process, turn about, ${runs} runs each, medians (min–max):`,
      `At ${smallMb} MB resident:`,
      small,
      `At ${largeMb} MB resident (touched ballast, as an extension host holds):`,
      large,
      `Launcher processes started for the tool: ${sharedProcessLauncher()?.started ?? 0}.`,
    ];
  } finally {
    shell.shutdown();
  }
}
