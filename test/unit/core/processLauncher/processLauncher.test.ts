import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runProcess } from '../../../../src/core/access/sandbox/runProcess';
import { spawnDirectly, type Spawner } from '../../../../src/core/platform/processes/spawner';
import type { CommandRequest, CommandResult } from '../../../../src/core/ports';
import { FRAME, FrameReader } from '../../../../src/core/platform/processLauncher/launcherFrames';
import { ProcessLauncher, type LauncherTimers } from '../../../../src/core/platform/processLauncher/processLauncher';
import { commandRequest } from '../nodeAdapters/commandRequest';
import { isDead, parentOf } from '../nodeAdapters/procStat';

const request = (script: string, extra: Partial<CommandRequest> = {}): CommandRequest =>
  commandRequest(script, { file: '/bin/sh', args: ['-c', script], env: { PATH: process.env.PATH ?? '', ANSWER: '42' } }, extra);

/** Timers that fire only when the test says so. */
function manualTimers(): LauncherTimers & { pending: { callback: () => void; ms: number }[] } {
  const pending: { callback: () => void; ms: number }[] = [];
  return {
    pending,
    set: (callback, ms) => {
      const timer = { callback, ms };
      pending.push(timer);
      return timer;
    },
    clear: (handle) => {
      const at = pending.indexOf(handle as (typeof pending)[number]);
      if (at >= 0) pending.splice(at, 1);
    },
  };
}

const launchers: ProcessLauncher[] = [];
function launcher(options: ConstructorParameters<typeof ProcessLauncher>[0] = {}): ProcessLauncher {
  const made = new ProcessLauncher(options);
  launchers.push(made);
  return made;
}
afterEach(() => {
  for (const made of launchers.splice(0)) made.shutdown();
});

const run = (spawner: Spawner, script: string, extra: Partial<CommandRequest> = {}, onOutput?: (text: string) => void) =>
  runProcess(request(script, extra), onOutput, { spawner });

describe.skipIf(process.platform !== 'linux')('the process launcher', () => {
  it('runs a process as a direct start does: the same output, exit code and environment', async () => {
    const script = 'printf "out %s\\n" "$ANSWER"; printf "err\\n" >&2; env | sort; exit 3';
    const launched = launcher();
    // stdout and stderr are two pipes: their order in the output is the reader's, either way.
    const lines = (result: CommandResult) => ({ ...result, output: result.output.split('\n').sort() });
    const through = await run(launched.spawn, script);
    expect(lines(through)).toEqual(lines(await run(spawnDirectly, script)));
    expect(through.exitCode).toBe(3);
    expect(through.output).toContain('out 42\n');
    expect(through.output).toContain('ANSWER=42\n');
    expect(launched.started).toBe(1);
  });

  it("holds nothing of this process's environment itself", async () => {
    process.env.SUBAGENTS_TEST_SECRET = 'do-not-pass';
    try {
      const launched = launcher();
      await run(launched.spawn, 'true');
      const environ = readFileSync(`/proc/${launched.pid}/environ`, 'utf8').split('\0').filter(Boolean);
      expect(environ).toEqual(['ELECTRON_RUN_AS_NODE=1']);
    } finally {
      delete process.env.SUBAGENTS_TEST_SECRET;
    }
  });

  it("kills the process group on cancel, and what it started is the launcher's child, not ours", async () => {
    const launched = launcher();
    const stop = new AbortController();
    let pid = 0;
    let parent = 0;
    const result = await run(launched.spawn, 'echo "pid:$$"; sleep 1000', { signal: stop.signal }, (text) => {
      pid = Number(/pid:(\d+)/.exec(text)?.[1] ?? 0);
      parent = parentOf(pid);
      stop.abort();
    });
    expect(result.cancelled).toBe(true);
    expect(parent).toBe(launched.pid);
    await vi.waitFor(() => expect(isDead(pid)).toBe(true), { timeout: 2000, interval: 10 });
  });

  it('kills it at its timeout', async () => {
    const launched = launcher();
    let pid = 0;
    const result = await run(
      launched.spawn,
      'echo "pid:$$"; sleep 1000',
      { timeoutMs: 300 },
      (text) => (pid = Number(/pid:(\d+)/.exec(text)?.[1] ?? pid)),
    );
    expect(result.timedOut).toBe(true);
    await vi.waitFor(() => expect(isDead(pid)).toBe(true), { timeout: 2000, interval: 10 });
  });

  it('says when a process cannot start, and goes on serving', async () => {
    const launched = launcher();
    const missing = request('x', { launch: { file: '/no/such/program', args: [], env: {} } });
    await expect(runProcess(missing, undefined, { spawner: launched.spawn })).rejects.toThrow(/ENOENT/);
    expect((await run(launched.spawn, 'echo fine')).output).toBe('fine\n');
  });

  it('that cannot start: what was asked starts directly, it says so once, and is not tried again', async () => {
    const log: string[] = [];
    const launched = launcher({ log: (m) => log.push(m), nodePath: '/no/such/node' });
    expect((await run(launched.spawn, 'echo "parent $PPID"')).output).toBe(`parent ${process.pid}\n`);
    expect((await run(launched.spawn, 'echo again')).output).toBe('again\n');
    expect(log).toEqual([
      expect.stringMatching(
        /^The process launcher could not start \(spawn \/no\/such\/node ENOENT\): ripgrep and git start directly from now on\.$/,
      ),
    ]);
    expect([launched.started, launched.pid]).toEqual([1, undefined]);
  });

  it('that breaks its protocol is ended, and what it was asked starts directly', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'launcher-bad-'));
    try {
      // Stands in for node: ignores the program it is given and answers the first request with a frame of a kind there is not.
      const fake = join(dir, 'fake-node');
      await writeFile(fake, "#!/bin/sh\nprintf '\\007\\000\\000\\000\\001\\000\\000\\000\\000'\nexec cat > /dev/null\n", { mode: 0o755 });
      const log: string[] = [];
      const launched = launcher({ log: (m) => log.push(m), nodePath: fake });
      expect((await run(launched.spawn, 'echo "parent $PPID"')).output).toBe(`parent ${process.pid}\n`);
      expect(log).toEqual([expect.stringMatching(/^The process launcher ended: it sent a frame of unknown kind 7;/)]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('ends when idle for its while, and the next start makes a new one', async () => {
    const timers = manualTimers();
    const launched = launcher({ idleMs: 60_000, timers });
    await run(launched.spawn, 'true');
    const first = launched.pid!;
    expect(timers.pending.map((t) => t.ms)).toEqual([60_000]);
    // Something runs again before the while is over: no shutdown under it.
    await run(launched.spawn, 'true');
    expect(launched.pid).toBe(first);
    expect(timers.pending).toHaveLength(1);
    const stopped = launched.stopped();
    timers.pending.shift()!.callback();
    await stopped;
    expect(isDead(first)).toBe(true);
    expect((await run(launched.spawn, 'echo again')).output).toBe('again\n');
    expect(launched.started).toBe(2);
    expect(launched.pid).not.toBe(first);
  });

  it('killed while processes run: one that said nothing yet starts again directly, one that did fails, and both are killed', async () => {
    const log: string[] = [];
    const launched = launcher({ log: (m) => log.push(m) });
    const dir = await mkdtemp(join(tmpdir(), 'launcher-kill-'));
    try {
      let talkingPid = 0;
      const talking = run(launched.spawn, 'echo "pid:$$"; sleep 1000', {}, (text) => (talkingPid = Number(/pid:(\d+)/.exec(text)?.[1])));
      const pidFile = join(dir, 'pid');
      // Says nothing the first time; started again (the file `go` is there by then), it answers at once, with its parent's pid.
      const silent = run(launched.spawn, `if [ -e ${dir}/go ]; then echo "direct $PPID"; else echo $$ > ${pidFile}; sleep 1000; fi`);
      await vi.waitFor(() => expect(existsSync(pidFile) && talkingPid > 0).toBe(true), { timeout: 5000, interval: 10 });
      const silentPid = Number(readFileSync(pidFile, 'utf8'));
      await writeFile(join(dir, 'go'), '');
      const launcherPid = launched.pid!;
      const talkingFails = expect(talking).rejects.toThrow(/process launcher ended while \/bin\/sh ran/);
      process.kill(launcherPid, 'SIGKILL');
      expect((await silent).output).toBe(`direct ${process.pid}\n`);
      await talkingFails;
      for (const pid of [silentPid, talkingPid]) await vi.waitFor(() => expect(isDead(pid)).toBe(true), { timeout: 2000, interval: 10 });
      expect(log).toEqual([expect.stringMatching(/^The process launcher ended: it was killed \(SIGKILL\)/)]);
      // The next start makes a new launcher.
      expect((await run(launched.spawn, 'echo next')).output).toBe('next\n');
      expect(launched.started).toBe(2);
      expect(launched.pid).not.toBe(launcherPid);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('stopped with SIGTERM (its group stopped), kills what it runs; Ctrl+C it leaves to its parent', async () => {
    const launched = launcher();
    let pid = 0;
    let stopped: Promise<void> | undefined;
    const running = run(launched.spawn, 'echo "pid:$$"; sleep 1000', {}, (text) => {
      pid = Number(/pid:(\d+)/.exec(text)?.[1] ?? 0);
      stopped = launched.stopped();
      process.kill(launched.pid!, 'SIGINT');
      process.kill(launched.pid!, 'SIGTERM');
    });
    await expect(running).rejects.toThrow(/process launcher ended while \/bin\/sh ran \(it exited with code 0\)/);
    await stopped;
    await vi.waitFor(() => expect(isDead(pid)).toBe(true), { timeout: 2000, interval: 10 });
  });

  it('never keeps a process that is done from exiting, and ends with it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'launcher-exit-'));
    try {
      const script = join(dir, 'leaveLauncherRunning.js');
      // Minified, as the production bundles are: the launcher's program is its function's source text, which must survive that.
      await esbuild.build({
        entryPoints: [join(__dirname, 'fixtures', 'leaveLauncherRunning.ts')],
        bundle: true,
        minify: true,
        platform: 'node',
        format: 'cjs',
        outfile: script,
        logLevel: 'error',
      });
      const child = spawn(process.execPath, [script], { stdio: ['ignore', 'pipe', 'inherit'] });
      let stdout = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      // It does not call process.exit: it ends when nothing keeps it alive, its launcher still running.
      const code = await new Promise((resolve) => child.on('close', resolve));
      const reported = JSON.parse(stdout) as { output: string; launcher: number; launcherAlive: boolean };
      expect({ code, output: reported.output, launcherAlive: reported.launcherAlive }).toEqual({
        code: 0,
        output: 'ran\n',
        launcherAlive: true,
      });
      await vi.waitFor(() => expect(isDead(reported.launcher)).toBe(true), { timeout: 2000, interval: 10 });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("the launcher's frames", () => {
  it('are read whole whatever the chunks', () => {
    const frame = (kind: number, id: number, payload: string) => {
      const header = Buffer.alloc(9);
      header[0] = kind;
      header.writeUInt32BE(id, 1);
      header.writeUInt32BE(Buffer.byteLength(payload), 5);
      return Buffer.concat([header, Buffer.from(payload)]);
    };
    const bytes = Buffer.concat([
      frame(FRAME.spawned, 1, '{"pid":7}'),
      frame(FRAME.stdout, 1, ''),
      frame(FRAME.stdout, 2, 'a\0b\0'),
      frame(FRAME.close, 1, '{}'),
    ]);
    for (const size of [1, 2, 9, 10, bytes.length]) {
      const reader = new FrameReader();
      const frames = [];
      for (let at = 0; at < bytes.length; at += size) frames.push(...reader.push(bytes.subarray(at, at + size)));
      expect(frames.map((f) => [f.kind, f.id, f.payload.toString()])).toEqual([
        [FRAME.spawned, 1, '{"pid":7}'],
        [FRAME.stdout, 1, ''],
        [FRAME.stdout, 2, 'a\0b\0'],
        [FRAME.close, 1, '{}'],
      ]);
    }
  });
});
