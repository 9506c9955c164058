import { setProcessLauncherEnabled, sharedProcessLauncher } from '../src/core/processLauncher/sharedLauncher';
import { formatMs, summarize, table, type Summary } from './stats';

/** A tool call (search_text or find_files through the real tool, as searchBench.ts makes them) and the same search by plain rg. */
export interface LauncherCase {
  what: string;
  plain: () => Promise<void>;
  tool: () => Promise<void>;
}

const TARGET_RSS_MB = 500;

/** Ballast touched page by page (as spawnCost.ts does), until this process holds `mb` MB resident: a fork has it all to copy the page tables of. */
function inflateTo(mb: number): Buffer[] {
  const ballast: Buffer[] = [];
  while (process.memoryUsage().rss < mb * 1e6) ballast.push(Buffer.alloc(8 * 1024 * 1024, 1));
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
 * by the launcher (src/core/processLauncher/), turn about, beside plain rg. Plain rg's time is
 * taken while this process is small, as a shell would start it: in the large process its own
 * start would pay the fork the tool no longer pays.
 */
async function measure(cases: LauncherCase[], runs: number, plainTimes: Map<string, Summary>): Promise<string> {
  const rows = [['tool', 'plain rg', 'spawned directly', '/rg', 'by the launcher', '/rg']];
  for (const { what, plain, tool } of cases) {
    const direct = async () => {
      setProcessLauncherEnabled(false);
      await tool();
    };
    const launched = async () => {
      setProcessLauncherEnabled(true);
      await tool();
    };
    for (const warm of [direct, launched]) await warm();
    const samples: number[][] = [[], [], []];
    for (let i = 0; i < runs; i++) {
      if (!plainTimes.has(what)) samples[0]!.push(await timed(plain));
      samples[1]!.push(await timed(direct));
      samples[2]!.push(await timed(launched));
    }
    if (!plainTimes.has(what)) plainTimes.set(what, summarize(samples[0]!));
    const p = plainTimes.get(what)!;
    const [d, l] = [summarize(samples[1]!), summarize(samples[2]!)];
    const ratio = (s: Summary) => `${(s.median / p.median).toFixed(2)} x`;
    rows.push([what, formatMs(p), formatMs(d), ratio(d), formatMs(l), ratio(l)]);
  }
  setProcessLauncherEnabled(true);
  return table(rows);
}

/** `npm run bench -- --search`'s launcher rows: the tool in a small process, then in one of about 500 MB resident (an extension host's size). */
export async function largeHostSearch(cases: LauncherCase[], runs: number): Promise<string[]> {
  collect();
  const plainTimes = new Map<string, Summary>();
  const small = await measure(cases, runs, plainTimes);
  const smallMb = rssMb();
  const ballast = inflateTo(TARGET_RSS_MB);
  const large = await measure(cases, runs, plainTimes);
  const lines = [
    `Ripgrep started directly or by the process launcher, turn about, ${runs} runs each, medians (min–max); plain rg timed in the small process:`,
    `At ${smallMb} MB resident:`,
    small,
    `At ${rssMb()} MB resident (touched ballast, as an extension host holds):`,
    large,
    `Launcher processes started: ${sharedProcessLauncher()?.started ?? 0}.`,
  ];
  ballast.length = 0;
  collect();
  return lines;
}
