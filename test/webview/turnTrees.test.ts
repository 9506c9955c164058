import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, stateMessage, ThreadScript, type Harness } from './harness';

// Each turn carries its own tree under its answer, collapsed to one live line per child; the
// thread's runs stay reachable (the Runs view, with how many still work); a turn that ends shows
// its answer from the start.

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(async () => {
  await harness?.close();
});

describe('per-turn trees', () => {
  it("put each turn's runs under its own answer, and a background child stays with the turn that started it", async () => {
    const panel = await harness.open();
    const s = new ThreadScript();
    await panel.send(
      stateMessage(
        'thread-1',
        [
          s.started('t1', { task: 'First question' }),
          s.toolStarted('t1', 'bg', 'delegate_task', { task: 'dig', agents: ['scout'], background: true }),
          s.started('scout', { parent: 't1', agent: 'scout', call: 'bg' }),
          s.toolFinished('t1', 'bg', 'delegate_task', [{ agent: 'scout', status: 'started' }]),
          s.finished('t1', 'ok', 'Started a scout.'),
          s.started('t2', { task: 'Second question' }),
          s.toolStarted('t2', 'd', 'delegate_task', { task: 'check', agents: ['reviewer'] }),
          s.started('rev', { parent: 't2', agent: 'reviewer', call: 'd' }),
        ],
        { busy: true },
      ),
    );
    const page = panel.page;
    await page.locator('.turn[data-run-id="t2"] .run-node[data-run-id="rev"]').waitFor();
    const agentsOf = (turn: string) =>
      page.locator(`.turn[data-run-id="${turn}"] .run-tree > .run-node`).evaluateAll((els) => els.map((e) => e.getAttribute('data-agent')));
    expect(await agentsOf('t1')).toEqual(['scout']);
    expect(await agentsOf('t2')).toEqual(['reviewer']);
    // The tree is under the answer, inside its message.
    expect(await page.locator('.turn[data-run-id="t1"] .message.assistant > .message-body ~ .run-tree').count()).toBe(1);
    // Two runs work: the header's Runs button says so, so the background one is not lost.
    await expect.poll(() => page.locator('#runs-toggle .runs-badge').innerText()).toBe('2');
    expect(await page.locator('#runs-toggle').getAttribute('aria-label')).toContain('(2 running)');
  });

  it('show one live line per child, from its last tool call, with elapsed time and tokens, and open to task, text and calls', async () => {
    const panel = await harness.open({ viewport: { width: 420, height: 800 } });
    const s = new ThreadScript();
    await panel.send(
      stateMessage(
        'thread-1',
        [
          s.started('root'),
          s.started('a', { parent: 'root', agent: 'researcher', task: 'Find where totals are computed' }),
          s.toolStarted('a', 'k1', 'read_file', { path: 'src/invoice.ts' }),
        ],
        { busy: true },
      ),
    );
    const line = panel.page.locator('.run-node[data-run-id="a"] > .run-header');
    await line.locator('.run-activity', { hasText: 'reading src/invoice.ts' }).waitFor();
    expect(await line.locator('.run-agent').innerText()).toBe('researcher');
    expect(await line.locator('.state-icon').getAttribute('class')).toContain('codicon-loading');
    // Elapsed since it started (the script started it about a minute ago) and its tokens so far.
    expect(await line.locator('.run-stats').innerText()).toMatch(/^\dm \d\ds · 0 tok$/);
    expect(await panel.page.locator('.run-node[data-run-id="a"]').getAttribute('aria-expanded')).toBe('false');
    expect(await panel.page.locator('.run-node[data-run-id="a"] .run-task').isVisible()).toBe(false);

    await panel.send({
      type: 'events',
      threadId: 'thread-1',
      events: [s.toolFinished('a', 'k1', 'read_file', { content: 'x' }), s.toolStarted('a', 'k2', 'run_command', { command: 'npm test' })],
    });
    await line.locator('.run-activity', { hasText: 'running npm test' }).waitFor();
    await panel.send({
      type: 'events',
      threadId: 'thread-1',
      events: [s.toolFinished('a', 'k2', 'run_command', { exitCode: 0, output: 'ok' }), s.delta('a', 'Totals are summed in `total()`.')],
    });
    await line.locator('.run-activity', { hasText: 'writing: Totals are summed in total().' }).waitFor();

    await line.click();
    const node = panel.page.locator('.run-node[data-run-id="a"]');
    expect(await node.getAttribute('aria-expanded')).toBe('true');
    expect(await node.locator('.run-task').innerText()).toBe('Find where totals are computed');
    expect(
      await node
        .locator('> [role="group"] > .tool-call')
        .evaluateAll((els) => els.map((e) => e.querySelector('.tool-summary')?.textContent)),
    ).toEqual(['Read src/invoice.ts', 'Ran npm test · exit 0 · 0.0s']);
    await expect.poll(() => node.locator('.run-output').innerText()).toBe('Totals are summed in total().');
    // The stats' tooltip has the whole count.
    expect(await line.locator('.run-stats').getAttribute('title')).toMatch(/^This run: \d+\.\ds · 0 in \/ 0 out$/);
    expect(panel.errors).toEqual([]);
  });
});

describe("the thread's runs", () => {
  it("show every turn as its prompt and its tree, without the answers' text, and back", async () => {
    const panel = await harness.open();
    const s = new ThreadScript();
    await panel.send(
      stateMessage('thread-1', [
        s.started('t1', { task: 'First question' }),
        s.started('scout', { parent: 't1', agent: 'scout' }),
        s.finished('t1', 'ok', 'A long answer.\n\n'.repeat(30)),
        s.started('t2', { task: 'Second question' }),
        s.finished('t2', 'ok', 'Another long answer.\n\n'.repeat(30)),
      ]),
    );
    const page = panel.page;
    await page.locator('.message.assistant[data-run-id="t2"][data-state="ok"]').waitFor();
    const toggle = page.locator('#runs-toggle');
    expect(await toggle.getAttribute('aria-pressed')).toBe('false');
    await toggle.click();
    expect(await toggle.getAttribute('aria-pressed')).toBe('true');
    expect(await page.locator('.message.assistant[data-run-id="t1"] > .message-body').isVisible()).toBe(false);
    // The turn's prompt stays, on one line, and its runs with it: the scout is in view at once.
    expect(await page.locator('.turn[data-run-id="t1"] .user-text').isVisible()).toBe(true);
    expect(await page.locator('.run-node[data-run-id="scout"]').isVisible()).toBe(true);
    expect(await page.locator('.scroller').evaluate((el) => el.scrollHeight <= el.clientHeight + 1)).toBe(true);
    expect(((await panel.savedState()) as { view: string }).view).toBe('runs');
    await toggle.click();
    expect(await page.locator('.message.assistant[data-run-id="t1"] > .message-body').isVisible()).toBe(true);
  });
});

describe('when a turn ends', () => {
  const lines = (n: number) => Array.from({ length: n }, (_, i) => `Line ${i} of the answer.`).join('\n\n');

  it('the view shows its answer from the start', async () => {
    const panel = await harness.open({ viewport: { width: 400, height: 400 } });
    const s = new ThreadScript();
    await panel.send(stateMessage('thread-1', [s.started('root', { task: 'Explain' })], { busy: true }));
    await panel.page.locator('.message.assistant[data-state="running"]').waitFor();
    await panel.send({
      type: 'events',
      threadId: 'thread-1',
      events: [s.started('c', { parent: 'root' }), s.finished('c', 'ok', 'done'), s.delta('root', lines(30))],
    });
    const scroller = panel.page.locator('.scroller');
    // While it streams, the view follows the bottom.
    await expect
      .poll(() => scroller.evaluate((el) => el.scrollTop > 0 && el.scrollTop + el.clientHeight >= el.scrollHeight - 2))
      .toBe(true);
    await panel.send({ type: 'events', threadId: 'thread-1', events: [s.finished('root', 'ok', lines(30))] });
    await panel.page.locator('.message.assistant[data-state="ok"]').waitFor();
    await panel.settle();
    const offset = () =>
      panel.page.evaluate(
        () =>
          document.querySelector('.message.assistant')!.getBoundingClientRect().top -
          document.querySelector('.scroller')!.getBoundingClientRect().top,
      );
    expect(Math.abs(await offset())).toBeLessThan(2);
  });

  it('the view stays where the user scrolled to', async () => {
    const panel = await harness.open({ viewport: { width: 400, height: 400 } });
    const s = new ThreadScript();
    await panel.send(stateMessage('thread-1', [s.started('root', { task: 'Explain' }), s.delta('root', lines(40))], { busy: true }));
    await panel.page.locator('.message.assistant p', { hasText: 'Line 39' }).waitFor();
    const scroller = panel.page.locator('.scroller');
    await scroller.evaluate((el) => el.scrollTo({ top: 300 }));
    await expect.poll(() => scroller.evaluate((el) => el.scrollTop)).toBe(300);
    await panel.send({ type: 'events', threadId: 'thread-1', events: [s.finished('root', 'ok', lines(40))] });
    await panel.page.locator('.message.assistant[data-state="ok"]').waitFor();
    await panel.settle();
    expect(await scroller.evaluate((el) => el.scrollTop)).toBe(300);
  });
});
