import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { startAcpAgent } from '../../../../../src/core/run/external/acpConnection';
import type { AcpClientHandlers, AcpLaunch } from '../../../../../src/core/run/external/acpTypes';
import { FAKE_AGENT } from '../../../cli/acpHarness';

// Issue 44: the ACP client side against the fake agent (a real process, the SDK's agent side).
let ws: string;
beforeEach(async () => {
  ws = await mkdtemp(join(tmpdir(), 'acp-conn-'));
  return () => rm(ws, { recursive: true, force: true });
});

const refuse = () => Promise.reject(new Error('not in this test'));
const handlers = (updates: unknown[] = []): AcpClientHandlers => ({
  update: (u) => void updates.push(u),
  requestPermission: refuse,
  readTextFile: refuse,
  writeTextFile: refuse,
});
const launch = (env: Record<string, string> = {}, more: Partial<AcpLaunch> = {}): AcpLaunch => ({
  command: process.execPath,
  args: [FAKE_AGENT],
  env: { ...(process.env as Record<string, string>), ...env },
  cwd: ws,
  startTimeoutMs: 10_000,
  maxMessageBytes: 1024 * 1024,
  ...more,
});

describe('startAcpAgent (issue 44)', () => {
  it('an agent that never answers initialize is stopped after the start timeout, with an error that says so', async () => {
    const started = Date.now();
    await expect(startAcpAgent(launch({ FAKE_ACP_NO_INIT: '1' }, { startTimeoutMs: 500 }), handlers())).rejects.toThrow(
      /did not answer ACP's initialize and session\/new within 500 ms, so it was stopped/,
    );
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('an agent that needs a login says so, naming its authMethods, and never waits for one', async () => {
    await expect(startAcpAgent(launch({ FAKE_ACP_AUTH: '1' }), handlers())).rejects.toThrow(
      'fake-acp needs a login: run `fake login` in a terminal, then try again.',
    );
  });

  it('a command that does not exist is a clear error', async () => {
    await expect(startAcpAgent(launch({}, { command: join(ws, 'no-such-agent') }), handlers())).rejects.toThrow(
      /Could not start ".*no-such-agent"/,
    );
  });

  it('a crash during a prompt rejects it with the exit code and the last lines of stderr', async () => {
    const agent = await startAcpAgent(launch(), handlers());
    await expect(agent.prompt('MODE:crash')).rejects.toThrow(/exit code 1.*\n[\s\S]*fatal: the fake agent crashed on purpose/);
    await agent.close();
  });

  it('cancel: session/cancel makes the prompt end "cancelled"; close ends the process', async () => {
    const updates: unknown[] = [];
    const agent = await startAcpAgent(launch(), handlers(updates));
    const stop = agent.prompt('MODE:cancel');
    while (updates.length === 0) await new Promise((r) => setImmediate(r));
    await agent.cancel();
    await expect(stop).resolves.toBe('cancelled');
    const closing = Date.now();
    await agent.close();
    expect(Date.now() - closing).toBeLessThan(2000);
  });

  it('a hung agent that ignores everything is killed within the grace period', async () => {
    const updates: unknown[] = [];
    const agent = await startAcpAgent(launch(), handlers(updates));
    const stop = agent.prompt('MODE:hang');
    while (updates.length === 0) await new Promise((r) => setImmediate(r));
    const closing = Date.now();
    await agent.close(500);
    expect(Date.now() - closing).toBeLessThan(2000);
    await expect(stop).rejects.toThrow(/ended|closed/);
  });
});
