import { tmpdir } from 'node:os';
import { describe, expect, it, vi } from 'vitest';
import { runProcess } from '../../../../src/core/access/sandbox/runProcess';
import type { CommandRequest } from '../../../../src/core/ports';
import { commandEnvironment } from '../../../../src/core/access/sandbox/commandEnv';
import { shellLaunch } from '../../../../src/core/access/sandbox/commandLauncher';
import { commandRequest } from './commandRequest';
import { isDead } from './procStat';

/**
 * The pids still alive after at most a second. A killed process closes its pipes a moment before it
 * becomes a zombie, so it is looked at until it has; one that survived would still run at the end.
 */
async function survivors(pidList: number[]): Promise<number[]> {
  let alive = pidList;
  await vi
    .waitFor(
      () => {
        alive = pidList.filter((pid) => !isDead(pid));
        expect(alive).toEqual([]);
      },
      { timeout: 1000, interval: 10 },
    )
    .catch(() => undefined);
  return alive;
}

const request = (command: string, extra: Partial<CommandRequest> = {}): CommandRequest =>
  commandRequest(command, shellLaunch(command, commandEnvironment(process.env, [])), extra);

// A shell that starts a background child and a foreground child and prints both pids, then never ends.
const NEVER_ENDS = 'sleep 1000 & echo "bg:$!"; sh -c \'echo "fg:$$"; sleep 1000\'';

function pids(output: string): number[] {
  return [...output.matchAll(/(?:bg|fg):(\d+)/g)].map((m) => Number(m[1]));
}

describe.skipIf(process.platform === 'win32')('runProcess', () => {
  it('kills a command that never ends at its timeout, with every process it started', async () => {
    const result = await runProcess(request(NEVER_ENDS, { timeoutMs: 400 }));
    expect(result.timedOut).toBe(true);
    const started = pids(result.output);
    expect(started).toHaveLength(2);
    expect(await survivors(started)).toEqual([]);
  });

  it('kills the whole process group on cancel', async () => {
    const controller = new AbortController();
    const outputs: string[] = [];
    const running = runProcess(request(NEVER_ENDS, { signal: controller.signal }), (text) => {
      outputs.push(text);
      if (pids(outputs.join('')).length === 2) controller.abort();
    });
    const result = await running;
    expect(result.cancelled).toBe(true);
    expect(pids(result.output)).toHaveLength(2);
    expect(await survivors(pids(result.output))).toEqual([]);
  });

  it('returns the exit code and interleaved output, cutting the middle of long output with a count', async () => {
    const ok = await runProcess(request('echo out; echo err >&2; exit 3'));
    expect(ok).toMatchObject({ exitCode: 3, timedOut: false, cancelled: false, cutChars: 0 });
    expect(ok.output).toContain('out\n');
    expect(ok.output).toContain('err\n');
    const long = await runProcess(request('seq 1 100000', { maxOutputChars: 3000 }));
    expect(long.output.startsWith('1\n2\n3\n')).toBe(true);
    expect(long.output.trimEnd().endsWith('100000')).toBe(true);
    expect(long.cutChars).toBeGreaterThan(500_000);
    expect(long.output).toMatch(/\[… \d+ characters cut …\]/);
    expect(long.output.length).toBeLessThan(3100);
  });

  it('decodes multi-byte characters split across chunks (200k "€" arrive whole)', async () => {
    const seen: string[] = [];
    const result = await runProcess(request(`node -e "process.stdout.write('€'.repeat(200000))"`, { maxOutputChars: 1_000_000 }), (t) =>
      seen.push(t),
    );
    expect(seen.length).toBeGreaterThan(1);
    expect(result.output).not.toContain('\uFFFD');
    expect(seen.join('')).not.toContain('\uFFFD');
    expect(result.output).toBe('€'.repeat(200000));
  });

  it('returns when the main process ends: background jobs are killed with its group, not waited for', async () => {
    const started = Date.now();
    const result = await runProcess(request('sleep 300 & echo "bg:$!"; echo done', { timeoutMs: 60_000 }));
    expect(result).toMatchObject({ exitCode: 0, timedOut: false });
    expect(result.output).toContain('done');
    expect(await survivors(pids(result.output))).toEqual([]);
    // Far below the timeout; not a timing goal, only proof it did not wait for the job.
    expect(Date.now() - started).toBeLessThan(30_000);
  });

  it.skipIf(process.platform !== 'linux')(
    'kills what left the group with setsid, by the token it carries (best effort, Linux)',
    async () => {
      const result = await runProcess(request('setsid sleep 300 & echo "bg:$!"', { timeoutMs: 60_000 }));
      expect(result).toMatchObject({ exitCode: 0, timedOut: false });
      const [pid] = pids(result.output);
      expect(pid).toBeGreaterThan(0);
      expect(await survivors([pid!])).toEqual([]);
    },
  );

  it('runs in the given folder with no input', async () => {
    const result = await runProcess(request('pwd; cat; echo end'));
    expect(result.output).toBe(`${tmpdir()}\nend\n`);
  });
});
