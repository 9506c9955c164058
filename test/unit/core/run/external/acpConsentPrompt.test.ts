import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AcpConsentMemory } from '../../../../../src/core/config/acp/acpConsentKey';
import { nodeWorkspace } from '../../../../../src/core/engine/nodeWorkspace';
import type { ApprovalRequest } from '../../../../../src/core/ports';
import type { ApprovalDecision, RunEventOf } from '../../../../../src/shared/events';
import { agent, makeEngine } from '../../engineHarness';
import { FAKE_AGENT } from '../../../cli/acpHarness';

// The extension's consent for a workspace-declared external agent: asked on the child's node
// through the approval flow, remembered per workspace (the memory is the host's workspace state)
// for that declaration and the scripts it names, asked again when either changes. The agent is the
// fake ACP agent behind a workspace script, run as a real process.
vi.setConfig({ testTimeout: 60_000 });

let root: string;
beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'acp-consent-')));
  await writeFile(join(root, 'agent.mjs'), `await import(${JSON.stringify(FAKE_AGENT)});\n`);
});
afterEach(() => rm(root, { recursive: true, force: true }));

function memory(): AcpConsentMemory & { keys: Set<string> } {
  const keys = new Set<string>();
  return { keys, isApproved: (k) => keys.has(k), remember: (k) => void keys.add(k) };
}

function setup(answer: ApprovalDecision, remembered: AcpConsentMemory, source = '.vscode/agents/fake.md') {
  const asked: ApprovalRequest[] = [];
  const h = makeEngine(
    {
      agents: {
        supervisor: [{ toolCalls: [{ tool: 'delegate_task', input: { task: 'MODE:stream', agents: ['fake'] } }] }, { text: 'done' }],
      },
    },
    {
      workspace: nodeWorkspace({ root }),
      agents: { fake: agent('A fake external agent', { acp: { command: process.execPath, args: ['agent.mjs'], env: {} } }) },
      approver: { request: async (r) => (asked.push(r), answer) },
      acpConsent: { memory: remembered },
    },
  );
  h.profiles.get('fake')!.source = source;
  return { ...h, asked };
}

async function childEnd(h: ReturnType<typeof setup>): Promise<RunEventOf<'run.finished'>> {
  const sent = await h.engine.send({ prompt: 'go' });
  await sent.done;
  await h.engine.whenQuiet(sent.threadId);
  // The agent kept for the child thread's next run goes with the engine.
  await h.engine.closeExternalAgents();
  const child = h.events.find((e) => e.kind === 'run.started' && e.agent === 'fake')!.runId;
  return h.events.find((e): e is RunEventOf<'run.finished'> => e.kind === 'run.finished' && e.runId === child)!;
}

describe('consent to a workspace-declared external agent in the editor', () => {
  it('is asked on its node once, remembered, and asked again when the script it names is rewritten', async () => {
    const remembered = memory();
    const first = setup('approved', remembered);
    expect(await childEnd(first)).toMatchObject({ status: 'ok' });
    expect(first.asked.map((a) => a.tool)).toEqual(['acp_agent']);
    expect(first.asked[0]!.input).toMatchObject({
      agent: 'fake',
      source: '.vscode/agents/fake.md',
      command: process.execPath,
      args: ['agent.mjs'],
    });
    expect(remembered.keys.size).toBe(1);

    const again = setup('denied', remembered);
    expect(await childEnd(again)).toMatchObject({ status: 'ok' });
    expect(again.asked).toEqual([]);

    await writeFile(join(root, 'agent.mjs'), `import 'node:fs';\nawait import(${JSON.stringify(FAKE_AGENT)});\n`);
    const changed = setup('denied', remembered);
    const end = await childEnd(changed);
    expect(changed.asked.map((a) => a.tool)).toEqual(['acp_agent']);
    expect(end.status).toBe('error');
    expect(end.error).toContain('The "fake" agent');
    expect(end.error).toContain('--allow-acp fake');
    expect(end.error).toContain('approve it when its node asks');
  });

  it('a changed argument is another declaration: asked again', async () => {
    const remembered = memory();
    await childEnd(setup('approved', remembered));
    const changed = setup('denied', remembered);
    changed.profiles.get('fake')!.acp!.args = ['agent.mjs', '--extra'];
    expect((await childEnd(changed)).status).toBe('error');
    expect(changed.asked).toHaveLength(1);
  });

  it('one from user settings starts as declared, unasked', async () => {
    const h = setup('denied', memory(), 'user settings');
    expect(await childEnd(h)).toMatchObject({ status: 'ok' });
    expect(h.asked).toEqual([]);
  });
});
