import { cp, mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Engine } from '../../../src/core/engine/engine';
import { DEFAULT_SETTINGS } from '../../../src/core/config/settings/engineSettings';
import { parseJsonc } from '../../../src/core/platform/jsonc/parseJsonc';
import { createModelResolver } from '../../../src/core/models/createModelResolver';
import { nodeWorkspace } from '../../../src/core/engine/nodeWorkspace';
import type { Profile } from '../../../src/core/config/profiles/profile';
import { MemoryThreadStore } from '../../../src/core/storage/threads/memoryThreadStore';
import { PendingApprovals } from '../../../src/core/access/approvals/pendingApprovals';
import type { RunEvent } from '../../../src/shared/events';
import { EMPTY_TREE, foldRunEvents } from '../../../src/shared/runTree';
import { failedToolCalls, walkRuns } from '../../../src/shared/runTotals';

// The demo workspace (`npm run demo`, the e2e tests, the README's screenshots) played through the
// real engine over a copy of its files, with its own settings and scripted model: what a new user
// sees must be true. The invoice question delegates, a background fixer's edit waits for approval
// on its node and is announced later; any other question is told that the model is scripted.

const FIXTURE = join(__dirname, '..', '..', 'fixtures', 'demo-workspace');
let root: string;
beforeEach(async () => {
  root = join(await realpath(await mkdtemp(join(tmpdir(), 'subagents-demo-'))), 'invoice-kit');
  await cp(FIXTURE, root, { recursive: true });
});
afterEach(() => rm(join(root, '..'), { recursive: true, force: true }));

async function demoEngine() {
  const parsed = parseJsonc(await readFile(join(root, '.vscode', 'settings.json'), 'utf8'), { jsonc: true });
  if (!parsed.ok) throw new Error('the demo settings are not JSONC');
  const settings = parsed.value as {
    'subagents.model': string;
    'subagents.agents': Record<string, { description: string; instructions: string }>;
  };
  const profiles = new Map<string, Profile>(
    Object.entries(settings['subagents.agents']).map(([name, p]) => [name, { name, ...p, source: 'workspace settings' }]),
  );
  const model = settings['subagents.model'];
  const approvals = new PendingApprovals();
  const store = new MemoryThreadStore();
  const engine = new Engine({
    store,
    workspace: nodeWorkspace({ root }),
    approver: approvals,
    profiles: () => ({ profiles, problems: [] }),
    settings: () => ({ ...DEFAULT_SETTINGS, model }),
    createModelResolver: () => createModelResolver({ workspaceRoot: root, apiKey: () => undefined, specs: [model] }),
  });
  const events: RunEvent[] = [];
  engine.onEvent((e) => events.push(e));
  return { engine, approvals, events, runs: () => walkRuns(foldRunEvents(EMPTY_TREE, events)) };
}

describe('the demo workspace', () => {
  it('answers the invoice question with two subagents, and a background fixer whose edit waits on its node and is announced later', async () => {
    const demo = await demoEngine();
    const asked = new Promise<RunEvent>((resolve) => demo.engine.onEvent((e) => e.kind === 'approval.requested' && resolve(e)));
    const sent = await demo.engine.send({ prompt: 'How are invoice totals computed, and is the rounding right?' });
    const approval = await asked;
    // The edit waits on the fixer's own node, the file untouched, while the others answer.
    const fixer = demo.runs().find((r) => r.agent === 'fixer')!;
    expect(approval.runId).toBe(fixer.runId);
    expect(fixer.toolCalls.find((c) => c.tool === 'edit_file')?.approval).toMatchObject({
      approvalId: approval.kind === 'approval.requested' ? approval.approvalId : '',
    });
    expect(await readFile(join(root, 'src', 'invoice.ts'), 'utf8')).toContain('  return line.quantity * line.unitPrice;');
    await expect.poll(() => demo.runs().find((r) => r.depth === 0)?.text ?? '').toContain('waits for your approval on its node');
    expect(demo.approvals.resolve(approval.kind === 'approval.requested' ? approval.approvalId : '', 'approved')).toBe(true);
    const end = await sent.done;
    await demo.engine.whenQuiet(sent.threadId);

    expect(end.status).toBe('ok');
    const runs = demo.runs();
    expect(runs.map((r) => [r.agent, r.state]).sort()).toEqual([
      ['fixer', 'ok'],
      ['researcher', 'ok'],
      ['reviewer', 'ok'],
      ['supervisor', 'ok'],
    ]);
    expect(runs.find((r) => r.agent === 'researcher')?.toolCalls.map((c) => [c.tool, c.state])).toEqual([
      ['read_file', 'done'],
      ['read_file', 'done'],
    ]);
    expect(await readFile(join(root, 'src', 'invoice.ts'), 'utf8')).toContain('  return roundCents(line.quantity * line.unitPrice);');
    // The answer names files with lines (links in the panel), and the fixer's report comes after it, announced.
    expect(end.output).toMatch(/`src\/invoice\.ts:23`[\s\S]*waits for your approval[\s\S]*The fixer has reported back/);
  });

  it('says plainly that it is a scripted demo, and how to pick a real model, for any other question', async () => {
    const demo = await demoEngine();
    // Words of the demo's question alone do not make it the demo's question (issue 42 item 4).
    for (const prompt of [
      'What is the capital of France?',
      'write me a poem',
      'What is the total tax on my order?',
      'Add a discount field',
    ]) {
      const sent = await demo.engine.send({ prompt });
      const end = await sent.done;
      expect(end.status).toBe('ok');
      expect(end.output).toMatch(/^This is a \*\*scripted demo\*\*: no model read your message\./);
      expect(end.output).toContain('Subagents: Select Model…');
    }
    expect(demo.runs().every((r) => r.agent === 'supervisor' && r.toolCalls.length === 0)).toBe(true);
  });

  it('matches the demo question and ones close to it', async () => {
    const demo = await demoEngine();
    const asked = new Promise<RunEvent>((resolve) => demo.engine.onEvent((e) => e.kind === 'approval.requested' && resolve(e)));
    const sent = await demo.engine.send({ prompt: 'how is the invoice total rounded?' });
    const approval = await asked;
    demo.approvals.resolve(approval.kind === 'approval.requested' ? approval.approvalId : '', 'denied');
    await sent.done;
    await demo.engine.whenQuiet(sent.threadId);
    expect(demo.runs().some((r) => r.agent === 'researcher')).toBe(true);
  });

  it('asked again after its edit was approved, plays again and says why the edit cannot apply twice', async () => {
    const demo = await demoEngine();
    const play = async () => {
      const asked = new Promise<RunEvent>((resolve) =>
        demo.engine.onEvent((e) => e.kind === 'approval.requested' && !seen.has(e.approvalId) && resolve(e)),
      );
      const sent = await demo.engine.send({ prompt: 'How are invoice totals computed, and is the rounding right?' });
      const approval = await Promise.race([asked, sent.done.then(() => undefined)]);
      if (approval?.kind === 'approval.requested') {
        seen.add(approval.approvalId);
        demo.approvals.resolve(approval.approvalId, 'approved');
      }
      await sent.done;
      await demo.engine.whenQuiet(sent.threadId);
      return sent.threadId;
    };
    const seen = new Set<string>();
    await play();
    const fixed = await readFile(join(root, 'src', 'invoice.ts'), 'utf8');
    expect(fixed).toContain('  return roundCents(line.quantity * line.unitPrice);');
    await play();
    // The file is as the first play left it, and the second fixer says so: a failed edit, and why.
    expect(await readFile(join(root, 'src', 'invoice.ts'), 'utf8')).toBe(fixed);
    const fixer = demo
      .runs()
      .filter((r) => r.agent === 'fixer')
      .at(-1)!;
    expect(fixer.state).toBe('ok');
    expect(failedToolCalls(fixer)).toBe(1);
    expect(fixer.text).toMatch(/already in the file from an earlier play of this demo[\s\S]*Revert this run's changes/);
  });
});
