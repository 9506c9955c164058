import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Logger } from '../../../src/core/ports';
import { PendingApprovals } from '../../../src/core/access/approvals/pendingApprovals';
import { APPROVE, ApprovalPrompts, DENY, SHOW } from '../../../src/host/activity/approvalPrompts';
import { activityStatus, WindowActivity } from '../../../src/host/activity/windowActivity';
import { logRuns, redactSpec } from '../../../src/host/activity/runLog';
import { agent, makeEngine } from '../core/engineHarness';
import { makeWorld, spyWorkspace } from '../core/tools/toolWorld';

// What the window says about runs outside the panel: the status bar (runs working, an approval
// waiting), the view's badge and a notification for an approval the user cannot see, and the log.
// Fed by a real engine whose subagent asks to write a file.

let world: Awaited<ReturnType<typeof makeWorld>>;
beforeEach(async () => {
  world = await makeWorld();
  await writeFile(join(world.root, 'invoice.ts'), 'let total = 1;\n');
});
afterEach(() => world.cleanup());

const script = {
  agents: {
    supervisor: [{ toolCalls: [{ tool: 'delegate_task', input: { task: 'fix it', agents: ['fixer'] } }] }, { text: 'fixed' }],
    fixer: [{ toolCalls: [{ tool: 'edit_file', input: { path: 'invoice.ts', oldText: 'let', newText: 'const' } }] }, { text: 'edited' }],
  },
};

/** A notification the test answers by hand. */
function notifications() {
  const shown: { message: string; buttons: readonly string[]; answer: (choice: string | undefined) => void }[] = [];
  let arrived: (() => void) | undefined;
  return {
    shown,
    notify: (message: string, buttons: readonly string[]) =>
      new Promise<string | undefined>((answer) => {
        shown.push({ message, buttons, answer });
        arrived?.();
      }),
    next: () => new Promise<void>((resolve) => (shown.length ? resolve() : (arrived = resolve))),
  };
}

function setup(options: { visible?: boolean; shows?: boolean } = {}) {
  const approvals = new PendingApprovals();
  const h = makeEngine(script, { agents: { fixer: agent('Fixes') }, workspace: spyWorkspace(world.root).workspace, approver: approvals });
  const activity = new WindowActivity();
  h.engine.onEvent((e) => activity.note(e));
  const badges: [number, string][] = [];
  const warnings: string[] = [];
  const opened: string[] = [];
  const notes = notifications();
  let visible = options.visible ?? false;
  const prompts = new ApprovalPrompts({
    activity,
    panelVisible: () => visible,
    panelShows: () => visible && (options.shows ?? false),
    notify: notes.notify,
    resolve: (id, decision) => approvals.resolve(id, decision),
    show: async (id) => void opened.push(id),
    setBadge: (count, tooltip) => void badges.push([count, tooltip]),
    warn: (m) => void warnings.push(m),
  });
  const requested = new Promise<string>((resolve) => h.engine.onEvent((e) => e.kind === 'approval.requested' && resolve(e.approvalId)));
  const setVisible = (v: boolean) => {
    visible = v;
    prompts.panelChanged();
  };
  return { h, activity, prompts, badges, warnings, opened, notes, requested, setVisible };
}

describe('the status bar', () => {
  it('is hidden while nothing works, counts the runs, and puts a waiting approval first', async () => {
    const p = setup();
    expect(activityStatus(p.activity.snapshot())).toBeUndefined();
    const seen: (string | undefined)[] = [];
    p.activity.onChange((s) => seen.push(activityStatus(s)?.text));
    const sent = await p.h.engine.send({ prompt: 'fix the invoice' });
    await p.requested;
    expect(activityStatus(p.activity.snapshot())).toEqual({
      text: '$(bell-dot) Approval waiting',
      tooltip: 'Subagents: fixer wants to edit invoice.ts; 2 runs working. Click to open the panel.',
      warning: true,
      threadId: sent.threadId,
    });
    await p.notes.next();
    p.notes.shown[0]!.answer(APPROVE);
    await sent.done;
    await p.h.engine.whenQuiet(sent.threadId);
    expect(seen).toEqual([
      '$(sync~spin) 1 run',
      '$(sync~spin) 2 runs',
      '$(bell-dot) Approval waiting',
      '$(sync~spin) 2 runs',
      '$(sync~spin) 1 run',
      undefined,
    ]);
  });
});

describe('an approval the user cannot see', () => {
  it('is a notification bound to its id, and a badge on the hidden view until it is answered', async () => {
    const p = setup();
    const sent = await p.h.engine.send({ prompt: 'fix the invoice' });
    await p.notes.next();
    expect(p.notes.shown[0]).toMatchObject({
      // One line that does not repeat itself (issue 42 item 2): the policy's "Writes invoice.ts." adds nothing.
      message: 'Subagents: fixer wants to edit invoice.ts (+1 −1).',
      buttons: [APPROVE, DENY, SHOW],
    });
    expect(p.badges.at(-1)).toEqual([1, 'An approval is waiting: fixer wants to edit invoice.ts']);
    // The panel opens: the badge goes, the notification stays bound to the same request.
    p.setVisible(true);
    expect(p.badges.at(-1)).toEqual([0, '']);
    p.notes.shown[0]!.answer(APPROVE);
    await sent.done;
    expect(p.h.events.filter((e) => e.kind === 'approval.resolved').map((e) => e.kind === 'approval.resolved' && e.decision)).toEqual([
      'approved',
    ]);
    expect(p.warnings).toEqual([]);
  });

  it('refuses a stale answer (the run moved on) in words, and Show opens the conversation', async () => {
    const p = setup();
    const sent = await p.h.engine.send({ prompt: 'fix the invoice' });
    const id = await p.requested;
    await p.notes.next();
    // Its run ends before the notification is answered.
    p.h.engine.cancel(sent.threadId);
    await sent.done;
    p.notes.shown[0]!.answer(DENY);
    await expect.poll(() => p.warnings).toEqual(["That approval is no longer waiting: fixer's run has already moved on."]);
    // Only the cancel's own answer: the late Deny reached no call.
    expect(p.h.events.filter((e) => e.kind === 'approval.resolved' && e.approvalId === id)).toHaveLength(1);
    expect(p.badges.at(-1)).toEqual([0, '']);

    const again = setup();
    const second = await again.h.engine.send({ prompt: 'fix the invoice' });
    await again.notes.next();
    again.notes.shown[0]!.answer(SHOW);
    await expect.poll(() => again.opened).toEqual([second.threadId]);
    again.h.engine.cancel(second.threadId);
    await second.done;
  });

  it('asks nothing outside the panel while the panel shows that conversation, and asks once it is hidden', async () => {
    const p = setup({ visible: true, shows: true });
    const sent = await p.h.engine.send({ prompt: 'fix the invoice' });
    await p.requested;
    expect(p.notes.shown).toEqual([]);
    expect(p.badges.every(([count]) => count === 0)).toBe(true);
    // The user switches to the explorer: the waiting request is theirs to answer from there.
    p.setVisible(false);
    await p.notes.next();
    expect(p.notes.shown.map((n) => n.message)).toEqual(['Subagents: fixer wants to edit invoice.ts (+1 −1).']);
    expect(p.badges.at(-1)?.[0]).toBe(1);
    // Shown and hidden again: the same request is not asked twice.
    p.setVisible(true);
    p.setVisible(false);
    expect(p.notes.shown).toHaveLength(1);
    p.notes.shown[0]!.answer(APPROVE);
    await sent.done;
    expect(p.h.events.filter((e) => e.kind === 'approval.resolved').map((e) => e.kind === 'approval.resolved' && e.decision)).toEqual([
      'approved',
    ]);
  });
});

describe('the run log', () => {
  it('logs each start and end with status, time and tokens, never the task at info level', async () => {
    const lines: [string, string][] = [];
    const logger: Logger = {
      debug: (m) => lines.push(['debug', m]),
      info: (m) => lines.push(['info', m]),
      warn: (m) => lines.push(['warn', m]),
      error: (m) => lines.push(['error', m]),
    };
    const h = makeEngine({ agents: { supervisor: [{ text: 'done', usage: { inputTokens: 1200, outputTokens: 34 } }] } });
    logRuns((l) => h.engine.onEvent(l), logger);
    const secret = 'my password is hunter2-7f3a';
    const sent = await h.engine.send({ prompt: `Please log in, ${secret}` });
    await sent.done;
    expect(
      lines
        .filter(([level]) => level === 'info')
        .map(([, m]) =>
          m
            .replace(/r_\w+/g, 'r_x')
            .replace(/t_\w+/g, 't_x')
            .replace(/in \d+ ms/, 'in N ms'),
        ),
    ).toEqual([
      'Run r_x started: supervisor in thread t_x, model scripted:/scripts/test-script.json, task of 42 characters.',
      'Run r_x (supervisor) finished in N ms, 1,234 tokens (1,200 in / 34 out).',
    ]);
    expect(lines.filter(([level]) => level !== 'debug').some(([, m]) => m.includes('hunter2'))).toBe(false);
    expect(lines.find(([level]) => level === 'debug')?.[1]).toMatch(/task: Please log in, my password/);
    expect(redactSpec('openai-compatible:http://me:s3cret@llm.local:8080/v1#m')).toBe('openai-compatible:http://llm.local:8080/v1#m');
  });
});
