import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ThreadSummary } from '../../src/shared/protocol';
import { bigTree, startHarness, stateMessage, ThreadScript, type Harness, type Panel } from './harness';

// Threads: a list under the header with title, relative date, status and turns; search by title,
// rename, delete, open. And the header and every row fit a 300 px side bar.

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(async () => {
  await harness?.close();
});

const minutes = (n: number) => Date.now() - n * 60_000;
const THREADS: ThreadSummary[] = [
  {
    id: 'th-1',
    title: 'How are invoice totals computed in the billing service and where is the rounding done',
    createdAt: minutes(90),
    updatedAt: minutes(5),
    status: 'running',
    runCount: 3,
  },
  {
    id: 'th-2',
    title: 'How are invoice totals computed?',
    createdAt: minutes(3000),
    updatedAt: minutes(2 * 24 * 60),
    status: 'ok',
    runCount: 1,
  },
  { id: 'th-3', title: 'Release notes', createdAt: minutes(20), updatedAt: minutes(10), status: 'error', runCount: 2 },
];

async function openList(panel: Panel): Promise<void> {
  const s = new ThreadScript('th-1');
  await panel.send(stateMessage('th-1', [s.started('root', { task: THREADS[0]!.title })], { threads: THREADS, busy: true }));
  await panel.page.locator('#threads-button').click();
  await panel.page.locator('#thread-list .thread-row').first().waitFor();
}

describe('the thread list', () => {
  it('lists threads newest first with when, state and turns; the current one marked; opens one', async () => {
    const panel = await harness.open();
    await openList(panel);
    const page = panel.page;
    expect(await page.locator('#threads-button').getAttribute('aria-expanded')).toBe('true');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('thread-search');
    const rows = page.locator('#thread-list .thread-row');
    expect(await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-thread-id')))).toEqual(['th-1', 'th-3', 'th-2']);
    expect(await rows.locator('.thread-row-meta').allInnerTexts()).toEqual([
      '5 min ago · running · 3 turns',
      '10 min ago · failed · 2 turns',
      '2 days ago · done · 1 turn',
    ]);
    expect(await rows.first().getAttribute('aria-current')).toBe('true');
    // Threads with the same first words are told apart by the rest of the row.
    await rows.nth(2).locator('.thread-open').click();
    expect(await panel.waitForPosted((m) => m.type === 'openThread')).toEqual({ type: 'openThread', threadId: 'th-2' });
    await page.locator('#thread-list').waitFor({ state: 'hidden' });
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('threads-button');
  });

  it('searches by title, renames in place and deletes (the host asks first)', async () => {
    const panel = await harness.open();
    await openList(panel);
    const page = panel.page;
    const rows = page.locator('#thread-list .thread-row');
    await page.locator('#thread-search').fill('INVOICE');
    await expect.poll(() => rows.count()).toBe(2);
    await page.locator('#thread-search').fill('nothing like it');
    await page.locator('.thread-empty', { hasText: 'No thread title contains “nothing like it”.' }).waitFor();
    await page.locator('#thread-search').fill('release');
    await expect.poll(() => rows.count()).toBe(1);

    await rows.first().locator('.thread-rename').click();
    const input = page.locator('.thread-rename-input');
    expect(await input.inputValue()).toBe('Release notes');
    await input.fill('Release notes 1.2');
    await input.press('Enter');
    expect(await panel.waitForPosted((m) => m.type === 'renameThread')).toEqual({
      type: 'renameThread',
      threadId: 'th-3',
      title: 'Release notes 1.2',
    });
    await rows.first().locator('.thread-row-title', { hasText: 'Release notes 1.2' }).waitFor();
    // Escape cancels a rename without a message.
    await rows.first().locator('.thread-rename').click();
    await page.locator('.thread-rename-input').fill('never mind');
    await page.locator('.thread-rename-input').press('Escape');
    expect((await panel.posted()).filter((m) => m.type === 'renameThread')).toHaveLength(1);
    expect(await page.locator('#thread-list').isVisible()).toBe(true);

    await rows.first().locator('.thread-delete').click();
    expect(await panel.waitForPosted((m) => m.type === 'deleteThread')).toEqual({ type: 'deleteThread', threadId: 'th-3' });
    // Escape in the list closes it.
    await page.locator('#thread-search').press('Escape');
    await page.locator('#thread-list').waitFor({ state: 'hidden' });
  });
});

describe('at 300 px', () => {
  it('the header, the thread rows, the run and tool rows and the prompt fit, the title cut with an ellipsis', async () => {
    const panel = await harness.open({ viewport: { width: 300, height: 800 } });
    const s = new ThreadScript('th-1');
    await panel.send(
      stateMessage(
        'th-1',
        [
          s.started('root', { task: THREADS[0]!.title }),
          s.toolStarted('root', 'r', 'read_file', { path: 'src/services/billing/invoices/computeInvoiceTotals.ts' }),
          s.toolFinished('root', 'r', 'read_file', {
            path: 'src/services/billing/invoices/computeInvoiceTotals.ts',
            startLine: 1,
            endLine: 800,
            totalLines: 800,
            content: '',
          }),
          s.started('a', { parent: 'root', agent: 'a-researcher-with-a-long-name', task: 'Find the totals' }),
          s.toolStarted('a', 'k', 'run_command', {
            command: 'npm test -- --run src/services/billing/invoices/computeInvoiceTotals.test.ts',
          }),
          s.started('b', { parent: 'root', agent: 'reviewer' }),
          s.finished('b', 'ok', 'Rounding is done with Math.round on cents, which is fine for every currency we bill in.'),
        ],
        {
          threads: THREADS,
          busy: true,
          config: {
            model: 'openai-compatible:http://localhost:11434/v1#llama3.1:70b-instruct-q4',
            agents: [],
            problems: [
              { message: 'No model is configured: set subagents.model to a model spec such as openai:gpt-4.1.', severity: 'error' },
            ],
            trusted: true,
          },
        },
      ),
    );
    const page = panel.page;
    await page.locator('.run-node[data-run-id="b"][data-state="ok"] .run-activity').waitFor();
    await page.locator('#threads-button').click();
    await page.locator('#thread-list .thread-row').first().waitFor();
    const overflowing = await page.evaluate(() =>
      [
        ...document.querySelectorAll<HTMLElement>(
          '.header, .header-actions, #thread-list, .thread-row, .run-row, .tool-row, .message-author, .prompt-toolbar, .prompt-box, .problem, #conversation',
        ),
      ]
        .filter((el) => el.scrollWidth > el.clientWidth)
        .map((el) => `${el.className}: ${el.scrollWidth} > ${el.clientWidth}`),
    );
    if (process.env.SHOT) await page.screenshot({ path: process.env.SHOT });
    expect(overflowing).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(300);
    // Every header button shows whole; the title is cut with an ellipsis and whole in its tooltip.
    for (const id of ['#runs-toggle', '#threads-button']) {
      const box = (await page.locator(id).boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(300);
    }
    const title = page.locator('#thread-title');
    expect(await title.evaluate((el) => getComputedStyle(el).textOverflow)).toBe('ellipsis');
    expect(await title.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    expect(await title.getAttribute('title')).toBe(THREADS[0]!.title);
    // No second "+": the view title has New Thread.
    expect(await page.locator('#new-thread, .header [aria-label="New Thread"]').count()).toBe(0);
    // The run line keeps its time and tokens whole.
    const stats = page.locator('.run-node[data-run-id="a"] .run-stats');
    expect(await stats.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  });
});

describe('the list in a long conversation', () => {
  it('at 300 px high keeps its search box and whole rows in view (it does not shrink to its search box)', async () => {
    const panel = await harness.open({ viewport: { width: 300, height: 300 } });
    const s = new ThreadScript('th-1');
    const answer = Array.from({ length: 80 }, (_, i) => `Paragraph ${i} of a long answer.`).join('\n\n');
    await panel.send(
      stateMessage(
        'th-1',
        [...bigTree(s, 40, 2), s.started('long', { task: 'Explain it all' }), s.delta('long', answer), s.finished('long', 'ok', answer)],
        {
          threads: THREADS,
        },
      ),
    );
    const page = panel.page;
    await page.locator('.message.assistant .message-body', { hasText: 'Paragraph 79' }).waitFor();
    await page.locator('#threads-button').click();
    await page.locator('#thread-list .thread-row').first().waitFor();
    const list = (await page.locator('#thread-list').boundingBox())!;
    const rows = await page
      .locator('#thread-list .thread-row')
      .evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON() as DOMRect));
    expect(rows).toHaveLength(3);
    // Every row is whole inside the list and inside the window: none hidden behind a scroll of 20 px.
    for (const r of rows) {
      expect(r.top).toBeGreaterThanOrEqual(list.y - 0.5);
      expect(r.bottom).toBeLessThanOrEqual(list.y + list.height + 0.5);
      expect(r.bottom).toBeLessThanOrEqual(300);
    }
    const search = (await page.locator('#thread-search').boundingBox())!;
    expect(search.height).toBeGreaterThan(10);
  });
});

describe('the open list while a thread streams', () => {
  it('keeps its rows and the keyboard where they are', async () => {
    const panel = await harness.open();
    const s = new ThreadScript('th-1');
    await panel.send(stateMessage('th-1', [s.started('root', { task: 'Go' })], { threads: THREADS, busy: true }));
    await panel.page.locator('#threads-button').click();
    const row = panel.page.locator('#thread-list .thread-row[data-thread-id="th-3"] .thread-open');
    await row.focus();
    const before = await row.elementHandle();
    for (let i = 0; i < 3; i++) await panel.send({ type: 'events', threadId: 'th-1', events: [s.delta('root', `more ${i} `)] });
    await panel.page.locator('.message.assistant .message-body', { hasText: 'more 2' }).waitFor();
    expect(await panel.page.evaluate((el) => el === document.activeElement && el.isConnected, before)).toBe(true);
  });
});
