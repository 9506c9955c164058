import { readdirSync, readFileSync } from 'node:fs';

// Process bookkeeping from /proc (Linux): memory of the code-server and browser trees, and a last
// sweep for anything the test started that outlived its process group.

interface ProcInfo {
  ppid: number;
  rssKB: number;
}

function snapshot(): Map<number, ProcInfo> {
  const procs = new Map<number, ProcInfo>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // Fields after "(comm)"; comm may contain spaces and parentheses.
      const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      procs.set(Number(name), { ppid: Number(rest[1]), rssKB: Number(rest[21]) * 4 });
    } catch {
      // The process ended while we looked.
    }
  }
  return procs;
}

/** The pids of the trees rooted at `roots`, roots included. */
function descendants(procs: Map<number, ProcInfo>, roots: number[]): number[] {
  const children = new Map<number, number[]>();
  for (const [pid, info] of procs) {
    const list = children.get(info.ppid) ?? [];
    list.push(pid);
    children.set(info.ppid, list);
  }
  const seen = new Set<number>();
  const stack = [...roots];
  while (stack.length > 0) {
    const pid = stack.pop()!;
    if (seen.has(pid) || !procs.has(pid)) continue;
    seen.add(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return [...seen];
}

/** Proportional set size (shared pages split among their users) of one process, in KB. */
function pssKB(pid: number): number {
  try {
    return Number(/^Pss:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/**
 * Samples the memory of the code-server tree and of everything else this test process started
 * (the browser) every 250 ms, and keeps the peaks: RSS (counts shared pages once per process, so
 * it overstates Chromium) and PSS (shares them out; the honest total).
 */
export class PeakMemory {
  private readonly peaks = { serverRss: 0, browserRss: 0, totalRss: 0, serverPss: 0, browserPss: 0, totalPss: 0 };
  private timer: NodeJS.Timeout | undefined;

  start(serverPid: () => number | undefined): void {
    this.timer = setInterval(() => this.sample(serverPid()), 250);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  summary(): string {
    const p = this.peaks;
    const mb = (kb: number): number => Math.round(kb / 1024);
    return (
      `peak PSS: code-server ${mb(p.serverPss)} MB, browser ${mb(p.browserPss)} MB, together ${mb(p.totalPss)} MB ` +
      `(RSS ${mb(p.serverRss)} + ${mb(p.browserRss)}, together ${mb(p.totalRss)} MB)`
    );
  }

  private sample(serverPid: number | undefined): void {
    const procs = snapshot();
    const server = serverPid ? descendants(procs, [serverPid]) : [];
    const mine = [...procs].filter(([pid, info]) => info.ppid === process.pid && pid !== serverPid).map(([pid]) => pid);
    const browser = descendants(procs, mine);
    const rss = (pids: number[]): number => pids.reduce((sum, pid) => sum + (procs.get(pid)?.rssKB ?? 0), 0);
    const pss = (pids: number[]): number => pids.reduce((sum, pid) => sum + pssKB(pid), 0);
    const p = this.peaks;
    const [sr, br, sp, bp] = [rss(server), rss(browser), pss(server), pss(browser)];
    p.serverRss = Math.max(p.serverRss, sr);
    p.browserRss = Math.max(p.browserRss, br);
    p.totalRss = Math.max(p.totalRss, sr + br);
    p.serverPss = Math.max(p.serverPss, sp);
    p.browserPss = Math.max(p.browserPss, bp);
    p.totalPss = Math.max(p.totalPss, sp + bp);
  }
}

/** Pids of live processes whose command line mentions `text` (e.g. a run folder). */
export function processesMentioning(text: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const cmdline = readFileSync(`/proc/${name}/cmdline`, 'utf8');
      const state = /^State:\s+(\w)/m.exec(readFileSync(`/proc/${name}/status`, 'utf8'))?.[1];
      if (state !== 'Z' && cmdline.includes(text)) found.push(Number(name));
    } catch {
      // Gone already.
    }
  }
  return found;
}

/** Whether any process of the group `pgid` is still alive. */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}
