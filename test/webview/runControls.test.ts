import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunConfig, RunEvent } from '../../src/shared/events';
import { startHarness, stateMessage, ThreadScript, type Harness, type Panel } from './harness';

// The controls on one run's node: the budget bar, the steer box, "Why this config?", Stop, and
// the stalled and fallback marks, fed with the events the engine writes.

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(async () => {
  await harness?.close();
});

const CONFIG: RunConfig = {
  profileSource: '.vscode/agents/researcher.md',
  profilePath: '/ws/.vscode/agents/researcher.md',
  model: {
    requested: ['GPT-5', 'Claude Sonnet 4.5'],
    effective: 'vscode-lm:copilot/claude-sonnet-4.5',
    via: 'vscode-lm:copilot/claude-sonnet-4.5: entry 2 of the profile\'s list "GPT-5", "Claude Sonnet 4.5" ("GPT-5" cannot be used here)',
  },
  tools: {
    effective: ['read_file', 'search_text'],
    declared: { disallowedTools: ['run_command'] },
    removed: [
      { tool: 'run_command', reason: "in the profile's disallowedTools" },
      { tool: 'ask_user', reason: 'the child filter: only the supervisor talks to the user or installs things' },
    ],
  },
  limits: {
    maxSteps: { value: 25, source: 'the default (25)' },
    maxTokens: { value: 1000, source: 'the maxTokens of its delegate_task call; the profile allows 5,000' },
  },
  systemPrompt: "You research.\n\nInstructions from this project's own files: Use tabs.",
  taskMessage: 'Find the parser\n\n## Context\nsrc/ only',
  projectInstructions: ['AGENTS.md'],
};
const usage = (n: number) => ({ inputTokens: n - 10, outputTokens: 10, totalTokens: n });

/** A supervisor with one running child ("c") that has a configuration and a budget; its node opened. */
async function withChild(extra: (s: ThreadScript) => RunEvent[] = () => []) {
  const panel = await harness.open();
  const s = new ThreadScript();
  const events = [
    s.started('root'),
    s.toolStarted('root', 'd1', 'delegate_task', { task: 'Find the parser', agents: ['researcher'] }),
    {
      ...s.started('c', { parent: 'root', agent: 'researcher', call: 'd1' }),
      modelVia: 'fallback: entry 2 of the profile\'s list "GPT-5", "Claude Sonnet 4.5"',
    },
    s.config('c', CONFIG),
    ...extra(s),
  ];
  await panel.send(stateMessage('thread-1', events, { busy: true }));
  const node = panel.page.locator('[role="treeitem"][data-run-id="c"]');
  // The line is shown at once; the body (task and controls) once the node is opened.
  const line = node.locator(':scope > .run-header');
  await line.locator('.run-actions .run-stop').waitFor();
  await line.click();
  const controls = node.locator(':scope > .run-body > .run-controls');
  await controls.locator('.run-why').waitFor();
  return { panel, s, node, line, controls };
}

const more = (panel: Panel, ...events: RunEvent[]) => panel.send({ type: 'events', threadId: 'thread-1', events });

describe('the budget bar', () => {
  it('shows what the run and its subagents used of its limit, live, turning to warning at 80 % and to spent at the limit', async () => {
    const { panel, s, controls } = await withChild((t) => [t.usage('c', usage(500))]);
    const budget = controls.locator(':scope > .budget');
    const bar = budget.locator('.budget-bar');
    expect(await bar.getAttribute('aria-valuenow')).toBe('500');
    expect(await bar.getAttribute('aria-valuemax')).toBe('1000');
    expect(await budget.locator('.budget-label').innerText()).toBe('500 / 1,000 tokens (50 %)');
    expect(await budget.locator('.budget-fill').evaluate((el) => (el as HTMLElement).style.width)).toBe('50%');
    expect(await budget.getAttribute('title')).toBe('Token budget: the maxTokens of its delegate_task call; the profile allows 5,000');
    expect(await budget.getAttribute('class')).toBe('budget');

    // A grandchild's tokens count against it too.
    await more(panel, s.started('g', { parent: 'c', agent: 'reviewer' }), s.usage('g', usage(350)));
    await expect.poll(() => budget.locator('.budget-label').innerText()).toBe('850 / 1,000 tokens (85 %)');
    expect(await budget.getAttribute('class')).toBe('budget budget-warn');

    await more(panel, s.usage('c', usage(700)));
    await expect.poll(() => budget.getAttribute('class')).toBe('budget budget-spent');
    expect(await budget.locator('.budget-fill').evaluate((el) => (el as HTMLElement).style.width)).toBe('100%');
    expect(await panel.cspViolations()).toEqual([]);
    expect(panel.errors).toEqual([]);
  });

  it("shows the request's budget on the answer of the turn (the top run has no node of its own)", async () => {
    const panel = await harness.open();
    const s = new ThreadScript();
    const top = {
      ...CONFIG,
      profileSource: 'built-in',
      limits: { ...CONFIG.limits, maxTokens: { value: 10_000, source: 'subagents.budget.maxTokens, for the whole request' } },
    };
    await panel.send(stateMessage('thread-1', [s.started('root'), s.config('root', top), s.usage('root', usage(2500))], { busy: true }));
    const answer = panel.page.locator('.message.assistant[data-run-id="root"]');
    await expect.poll(() => answer.locator('.run-controls .budget-label').innerText()).toBe('2,500 / 10,000 tokens (25 %)');
    // It is stopped and told things from the prompt box, not from controls of its own.
    expect(await answer.locator('.run-stop, .steer').count()).toBe(0);
    await answer.locator('.run-why').click();
    expect(await answer.locator('.config-fields').innerText()).toContain('built-in');
  });
});

describe('the steer box', () => {
  it('sends a message to the running child with Enter, shows it in the node once taken, and goes when the run ends', async () => {
    const { panel, s, controls } = await withChild();
    const input = controls.locator('.steer-input');
    expect(await input.getAttribute('aria-label')).toBe('Message to researcher');
    await input.fill('Only look at src/parser.ts');
    await input.press('Enter');
    expect(await panel.waitForPosted((m) => m.type === 'steerRun')).toEqual({
      type: 'steerRun',
      runId: 'c',
      text: 'Only look at src/parser.ts',
    });
    expect(await input.inputValue()).toBe('');
    // Blank sends nothing; the send button does what Enter does.
    await input.fill('   ');
    await input.press('Enter');
    await input.fill('and the tests');
    await controls.locator('.steer-send').click();
    await expect.poll(async () => (await panel.posted()).filter((m) => m.type === 'steerRun')).toHaveLength(2);

    await more(panel, s.message('c', 'user', 'Only look at src/parser.ts'), s.message('c', 'parent', 'Skip the tests.'));
    await expect
      .poll(() => controls.locator('.run-message').allTextContents())
      .toEqual(['You:Only look at src/parser.ts', 'supervisor:Skip the tests.']);

    await more(panel, s.finished('c', 'ok', 'done'));
    await controls.locator('.steer').waitFor({ state: 'hidden' });
    expect(panel.errors).toEqual([]);
  });
});

describe('Why this config?', () => {
  it('opens the effective configuration with the source of each value, and the budget left', async () => {
    const { panel, controls } = await withChild((t) => [t.usage('c', usage(400))]);
    const why = controls.locator('.run-why');
    expect(await why.getAttribute('aria-expanded')).toBe('false');
    await why.click();
    const inspector = controls.locator('.config-inspector');
    await inspector.waitFor();
    expect(await why.getAttribute('aria-expanded')).toBe('true');
    const fields = await inspector.locator('.config-fields').innerText();
    expect(fields).toContain('.vscode/agents/researcher.md /ws/.vscode/agents/researcher.md');
    expect(fields).toContain('vscode-lm:copilot/claude-sonnet-4.5');
    expect(fields).toContain('Asked for: "GPT-5", then "Claude Sonnet 4.5".');
    expect(fields).toContain('read_file, search_text');
    expect(fields).toContain('disallowedTools: run_command');
    expect(await inspector.locator('.config-removed li').allInnerTexts()).toEqual([
      "run_command — in the profile's disallowedTools",
      'ask_user — the child filter: only the supervisor talks to the user or installs things',
    ]);
    expect(fields).toContain('25 (the default (25))');
    expect(fields).toContain('1,000 (the maxTokens of its delegate_task call; the profile allows 5,000)');
    expect(await inspector.locator('.config-left').innerText()).toBe('600 left of 1,000');
    expect(fields).toContain('AGENTS.md');
    expect(await inspector.locator('.config-system').innerText()).toBe(CONFIG.systemPrompt);
    expect(await inspector.locator('.config-task').innerText()).toBe(CONFIG.taskMessage);

    await why.click();
    await inspector.waitFor({ state: 'hidden' });
    expect(await why.getAttribute('aria-expanded')).toBe('false');
    expect(panel.errors).toEqual([]);
  });

  it('is offered on every run that has a configuration, finished or not; a run without one has no button', async () => {
    const panel = await harness.open();
    const s = new ThreadScript();
    await panel.send(
      stateMessage('thread-1', [
        s.started('root'),
        s.toolStarted('root', 'd1', 'delegate_task', { task: 't', agents: ['researcher', 'reviewer'] }),
        s.started('done', { parent: 'root', agent: 'researcher', call: 'd1' }),
        s.config('done', CONFIG),
        s.finished('done', 'ok', 'hi'),
        s.started('old', { parent: 'root', agent: 'reviewer', call: 'd1' }),
        s.finished('old', 'ok', 'from an older version'),
      ]),
    );
    for (const id of ['done', 'old']) await panel.page.locator(`[data-run-id="${id}"] > .run-header`).click();
    await panel.page.locator('[data-run-id="done"] .run-why').click();
    expect(await panel.page.locator('[data-run-id="done"] .config-fields').innerText()).toContain('.vscode/agents/researcher.md');
    await panel.page.locator('[data-run-id="old"] > .run-body').waitFor();
    expect(await panel.page.locator('[data-run-id="old"] .run-why').count()).toBe(0);
  });
});

describe('Stop on one node', () => {
  it('is in the live line of a working child: posts cancelRun for that run only, once, and goes when the run has ended', async () => {
    const { panel, s, line } = await withChild();
    const stop = line.locator('.run-stop');
    expect(await stop.getAttribute('aria-label')).toBe('Stop researcher and what it started; its supervisor goes on with what it had done');
    await stop.click();
    expect(await panel.waitForPosted((m) => m.type === 'cancelRun')).toEqual({ type: 'cancelRun', runId: 'c' });
    expect(await stop.isDisabled()).toBe(true);
    expect((await panel.posted()).filter((m) => m.type === 'cancel')).toEqual([]);
    // Pressing it did not fold the node.
    expect(await panel.page.locator('[data-run-id="c"]').getAttribute('aria-expanded')).toBe('true');
    await more(
      panel,
      s.finished(
        'c',
        'cancelled',
        'half of it',
        'Stopped by the user (the Stop button on its node in the panel). The output is what it had done by then.',
      ),
    );
    await stop.waitFor({ state: 'hidden' });
    expect(await line.locator('.run-state').innerText()).toBe('cancelled');
  });
});

describe('marks on the node', () => {
  it('says "stalled?" in the line after a stall warning until the run shows a sign of life, and shows the model it fell back to', async () => {
    const { panel, s, line, controls } = await withChild();
    expect(await controls.locator('.model-note').innerText()).toBe(
      'Model scripted:test: fallback: entry 2 of the profile\'s list "GPT-5", "Claude Sonnet 4.5"',
    );
    await more(panel, s.warning('c', 'Stalled? The model has sent nothing for 120 s while its call is open.', 'stall'));
    await line.locator('.run-stalled').waitFor();
    expect(await line.locator('.run-stalled').innerText()).toBe('stalled?');
    await more(panel, s.delta('c', 'back'));
    await line.locator('.run-stalled').waitFor({ state: 'hidden' });
  });
});
