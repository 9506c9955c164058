import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeWorld, runScript, supervisorCalls } from '../tools/toolWorld';

/**
 * Where no sandbox can start (here: bubblewrap and socat are not on PATH for this test process),
 * auto mode says so once, in a `warning` event with code "sandbox", and describes the protection
 * honestly; "on" refuses to run commands at all.
 */

const bin = await mkdtemp(join(tmpdir(), 'subagents-bin-'));
for (const tool of ['which', 'sh', 'bash', 'cat', 'ls'])
  await symlink(`/usr/bin/${tool}`, join(bin, tool)).catch(() => symlink(`/bin/${tool}`, join(bin, tool)));
const savedPath = process.env.PATH;
process.env.PATH = bin;
afterAll(async () => {
  process.env.PATH = savedPath;
  await rm(bin, { recursive: true, force: true });
});

let world: Awaited<ReturnType<typeof makeWorld>>;
beforeEach(async () => {
  world = await makeWorld();
});
afterEach(() => world.cleanup());

const twoCommands = supervisorCalls(
  { tool: 'run_command', input: { command: 'echo one' } },
  { tool: 'run_command', input: { command: 'echo two' } },
);

describe.skipIf(process.platform !== 'linux')('without a sandbox', () => {
  it('auto runs the commands and says so once, for the whole process', async () => {
    const first = await runScript(twoCommands, { root: world.root, settings: { approval: 'trust' } });
    expect(
      first
        .toolResults('run_command')
        .map((o) => (o as { output: string }).output)
        .sort(),
    ).toEqual(['one\n', 'two\n']);
    const warnings = first.ofKind('warning');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({
      code: 'sandbox',
      message: expect.stringMatching(/without an OS sandbox: .*bubblewrap \(bwrap\) not installed.*only by a text check/),
    });
    const second = await runScript(twoCommands, { root: world.root, settings: { approval: 'trust' } });
    expect(second.ofKind('warning')).toEqual([]);
  });

  it('"on" refuses to run any command, and says why', async () => {
    const r = await runScript(twoCommands, { root: world.root, settings: { approval: 'trust', 'sandbox.mode': 'on' } });
    for (const output of r.toolResults('run_command'))
      expect(output).toMatchObject({ error: expect.stringMatching(/must run in the OS sandbox.*Nothing was run/) });
    expect(r.commands).toEqual([]);
  });
});
