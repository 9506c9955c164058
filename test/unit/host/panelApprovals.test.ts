import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/core/ports';
import { PendingApprovals } from '../../../src/core/tools/pendingApprovals';
import { PanelController } from '../../../src/host/panelController';
import { PromptQueue } from '../../../src/core/requests/promptQueue';
import type { HostToWebview } from '../../../src/shared/protocol';
import { makeEngine } from '../core/engineHarness';
import { makeWorld, snapshot, spyWorkspace, supervisorCalls } from '../core/tools/toolWorld';

let world: Awaited<ReturnType<typeof makeWorld>>;
beforeEach(async () => {
  world = await makeWorld();
  await writeFile(join(world.root, 'README.md'), 'hello\n');
});
afterEach(() => world.cleanup());

function setup() {
  const approvals = new PendingApprovals();
  const h = makeEngine(supervisorCalls({ tool: 'write_file', input: { path: 'notes.txt', content: 'approved text' } }), {
    workspace: spyWorkspace(world.root).workspace,
    approver: approvals,
  });
  const posted: HostToWebview[] = [];
  const controller = new PanelController({
    engine: h.engine,
    store: h.store,
    queue: new PromptQueue(h.engine),
    memory: { get: () => undefined, set: async () => {} },
    config: () => ({ model: 'scripted:x', agents: [], problems: [], trusted: true }),
    logger: silentLogger,
    approvals,
    batchIntervalMs: 5,
  });
  controller.attach((m) => posted.push(m));
  const requested = new Promise<string>((resolve) => h.engine.onEvent((e) => e.kind === 'approval.requested' && resolve(e.approvalId)));
  const finished = new Promise<void>((resolve) => h.engine.onEvent((e) => e.kind === 'run.finished' && resolve()));
  return { controller, posted, requested, finished };
}

describe("the panel's Approve once / Deny", () => {
  it('Approve once lets the waiting call write', async () => {
    const { controller, requested, finished } = setup();
    await controller.receive({ type: 'send', text: 'go' });
    await controller.receive({ type: 'resolveApproval', approvalId: await requested, decision: 'approved' });
    await finished;
    expect(await readFile(join(world.root, 'notes.txt'), 'utf8')).toBe('approved text');
  });

  it('Deny leaves the disk as it was; a stale or unknown id is refused with a notice', async () => {
    const { controller, posted, requested, finished } = setup();
    await controller.receive({ type: 'send', text: 'go' });
    const id = await requested;
    await controller.receive({ type: 'resolveApproval', approvalId: id, decision: 'denied' });
    await finished;
    expect(await snapshot(world.root)).toEqual({ 'README.md': 'hello\n' });
    await controller.receive({ type: 'resolveApproval', approvalId: id, decision: 'approved' });
    expect(posted.at(-1)).toMatchObject({ type: 'notice', level: 'error', message: 'That approval is no longer waiting: its run has already moved on.' });
  });
});
