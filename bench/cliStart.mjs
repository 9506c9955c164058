// Measures how long `subagents --help` takes in a fresh process (dist/cli.js, as last built), the
// command that does the least besides loading the CLI: without a code cache
// (SUBAGENTS_CODE_CACHE=off, as every command was before the launcher), with an empty cache folder
// (the first command: it compiles, then writes the cache as it exits), and with the cache it wrote
// (every later command); beside Node's own start (`node -e 0`). Run by scripts/bench.mjs.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { medianOf } from './medians.mjs';

function timed(args, env) {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, args, { encoding: 'utf8', env: { ...process.env, ...env } });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${args.join(' ')} failed (${r.status}): ${r.stderr.slice(-500)}`);
  if (r.stderr.includes('warning')) throw new Error(`${args.join(' ')} warned: ${r.stderr.slice(-500)}`);
  return ms;
}

/** Medians (min–max) in ms over `runs` fresh processes of each kind, alternating so drift hits all alike. */
export function cliStartBench(runs = 15) {
  const cli = join(process.cwd(), 'dist', 'cli.js');
  const work = mkdtempSync(join(tmpdir(), 'subagents-cli-start-'));
  try {
    const warm = join(work, 'warm');
    timed([cli, '--help'], { SUBAGENTS_CODE_CACHE: warm });
    const samples = { node: [], off: [], first: [], cached: [] };
    for (let i = 0; i < runs; i++) {
      samples.node.push(timed(['-e', '0'], {}));
      samples.off.push(timed([cli, '--help'], { SUBAGENTS_CODE_CACHE: 'off' }));
      samples.first.push(timed([cli, '--help'], { SUBAGENTS_CODE_CACHE: join(work, `first-${i}`) }));
      samples.cached.push(timed([cli, '--help'], { SUBAGENTS_CODE_CACHE: warm }));
    }
    return Object.fromEntries(Object.entries(samples).map(([name, times]) => [name, medianOf(times)]));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
