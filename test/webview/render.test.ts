import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bigTree, stateMessage, ThreadScript, type Harness, type Panel } from './harness';

// What the panel shows: the conversation, each turn with its own tree of runs, from a state
// message and from streamed event batches, markdown rendered safely, and a big tree rendered.

let harness: Harness;
beforeAll(async () => {
  harness = await startHarnessOnce();
});
afterAll(async () => {
  await harness?.close();
});

async function startHarnessOnce(): Promise<Harness> {
  const { startHarness } = await import('./harness');
  return startHarness();
}

async function finishedThread(panel: Panel): Promise<ThreadScript> {
  const s = new ThreadScript('thread-1');
  await panel.send(
    stateMessage(
      'thread-1',
      [
        s.started('root', { task: 'How are invoice totals computed?' }),
        s.toolStarted('root', 'call-1', 'delegate_task', { task: 'look', agents: ['researcher', 'reviewer'] }),
        s.started('a', { parent: 'root', agent: 'researcher', task: 'Find the totals code', call: 'call-1' }),
        s.started('b', { parent: 'root', agent: 'reviewer', task: 'Review the rounding', call: 'call-1' }),
        s.toolStarted('a', 'a-1', 'read_file', { path: 'src/invoice.ts' }),
        s.toolFinished('a', 'a-1', 'read_file', 'export function total() {}'),
        s.finished('a', 'ok', 'Totals are summed in `total()`.'),
        s.finished('b', 'ok', 'Rounding is **fine**.'),
        s.toolFinished('root', 'call-1', 'delegate_task', [{ agent: 'researcher' }]),
        s.delta('root', 'Totals are '),
        s.finished('root', 'ok', 'Totals are computed in `total()`; rounding is **fine**.'),
      ],
      {
        threads: [
          { id: 'thread-1', title: 'Invoice totals', updatedAt: 2 },
          { id: 'thread-0', title: 'Older', updatedAt: 1 },
        ],
      },
    ),
  );
  return s;
}

describe('the state message', () => {
  it("renders the prompt, the answer and, under it, the turn's tree", async () => {
    const panel = await harness.open();
    await finishedThread(panel);
    const page = panel.page;
    await page.locator('.message.assistant[data-run-id="root"][data-state="ok"]').waitFor();
    expect(await page.locator('#conversation .message.user').innerText()).toContain('How are invoice totals computed?');
    expect(await page.locator('.message.assistant .message-body code').innerText()).toBe('total()');
    expect(await page.locator('#thread-title').innerText()).toBe('Invoice totals');

    // The tree sits in the answer; the top run is the answer itself, its delegation the two children.
    const tree = page.locator('.turn[data-run-id="root"] .message.assistant .run-tree[role="tree"]');
    const items = tree.locator('[role="treeitem"]');
    expect(await items.count()).toBe(2);
    const nodes = await items.evaluateAll((els) =>
      els.map((el) =>
        [
          el.dataset.runId,
          el.dataset.agent,
          el.dataset.state,
          el.dataset.depth,
          el.getAttribute('aria-level'),
          el.getAttribute('aria-expanded'),
        ].join(' '),
      ),
    );
    expect(nodes).toEqual(['a researcher ok 1 1 false', 'b reviewer ok 1 1 false']);
    expect(await tree.locator('.tool-call[data-tool="delegate_task"]').count()).toBe(0);
    // Collapsed: one line each, the answer's first line, time and tokens (rolled up under a run).
    expect(await tree.locator('[data-run-id="a"] .run-activity').innerText()).toBe('Totals are summed in total().');
    expect(await tree.locator('[data-run-id="a"] > .run-header .run-stats').innerText()).toBe('1.5s · 120 tok');
    expect(await tree.locator('[data-run-id="a"] .tool-call').count()).toBe(0);
    expect(await page.locator('.message.assistant .message-stats').innerText()).toBe('1.5s · 300 in / 60 out · 2 subagent runs');

    // Expanded: the task, the tool calls and the streamed text.
    await tree.locator('[data-run-id="a"] > .run-header').click();
    await expect.poll(() => tree.locator('[data-run-id="a"] .run-output').innerText()).toContain('Totals are summed in');
    expect(await tree.locator('[data-run-id="a"] .run-task').innerText()).toBe('Find the totals code');
    expect(await tree.locator('[data-run-id="a"] .tool-call[data-tool="read_file"][data-state="done"] .tool-summary').innerText()).toBe(
      'Read src/invoice.ts',
    );
    expect(panel.errors).toEqual([]);
  });

  it('replaces everything when a new state arrives', async () => {
    const panel = await harness.open();
    await finishedThread(panel);
    await panel.page.locator('.message.assistant[data-state="ok"]').waitFor();
    const other = new ThreadScript('thread-2');
    await panel.send(stateMessage('thread-2', [other.started('x', { task: 'Another question' })], { threads: [] }));
    await panel.page.locator('.message.assistant[data-run-id="x"][data-state="running"]').waitFor();
    expect(await panel.page.locator('.message.user').count()).toBe(1);
    expect(await panel.page.locator('.run-tree [role="treeitem"]').count()).toBe(0);
    expect(await panel.page.locator('#thread-title').innerText()).toBe('Another question');
  });
});

describe('event batches', () => {
  it('stream the answer text and move node states', async () => {
    const panel = await harness.open();
    const s = new ThreadScript('thread-1');
    await panel.send(stateMessage('thread-1', [s.started('root', { task: 'Go' })], { busy: true }));
    const answer = panel.page.locator('.message.assistant[data-run-id="root"]');
    await answer.and(panel.page.locator('[data-state="running"]')).waitFor();
    expect(await answer.locator('vscode-progress-ring').isVisible()).toBe(true);

    await panel.send({ type: 'events', threadId: 'thread-1', events: [s.delta('root', 'Hel'), s.delta('root', 'lo')] });
    await expect.poll(() => answer.locator('.message-body').innerText()).toBe('Hello');

    await panel.send({
      type: 'events',
      threadId: 'thread-1',
      events: [s.started('c', { parent: 'root', agent: 'researcher' }), s.toolStarted('c', 'c-1', 'run_command', { command: 'npm test' })],
    });
    const child = panel.page.locator('.run-tree [role="treeitem"][data-run-id="c"]');
    await child.and(panel.page.locator('[data-state="running"][data-depth="1"]')).waitFor();
    // The live line says what it does now.
    await child.locator('.run-activity', { hasText: 'running npm test' }).waitFor();
    expect(await child.locator('.state-icon').first().getAttribute('class')).toContain('codicon-loading');
    await child.locator('.run-header').click();
    await child.locator('.tool-call[data-tool="run_command"][data-state="running"]').waitFor();

    await panel.send({
      type: 'events',
      threadId: 'thread-1',
      events: [s.toolFinished('c', 'c-1', 'run_command', 'exit 1', true), s.finished('c', 'timeout', '', 'took too long')],
    });
    await child.and(panel.page.locator('[data-state="timeout"]')).waitFor();
    expect(await child.locator('.tool-call').getAttribute('data-state')).toBe('error');
    expect(await child.locator('.state-icon').first().getAttribute('class')).toContain('codicon-watch');
    expect(await child.locator('.run-state').innerText()).toBe('timed out');
    expect(await child.locator('.run-activity').innerText()).toBe('took too long');

    await panel.send({
      type: 'events',
      threadId: 'thread-1',
      events: [s.delta('root', ', world'), s.finished('root', 'ok', 'Hello, world')],
    });
    await answer.and(panel.page.locator('[data-state="ok"]')).waitFor();
    expect(await answer.locator('.message-body').innerText()).toBe('Hello, world');
    expect(await answer.locator('vscode-progress-ring').isVisible()).toBe(false);
    expect(panel.errors).toEqual([]);
  });

  it('apply all messages of a frame together, in the next animation frame', async () => {
    const panel = await harness.open();
    const s = new ThreadScript('thread-1');
    await panel.send(stateMessage('thread-1', [s.started('root')]));
    await panel.page.locator('.message.assistant[data-state="running"]').waitFor();
    const batches = [s.delta('root', 'one '), s.delta('root', 'two '), s.delta('root', 'three')].map((e) => ({
      type: 'events' as const,
      threadId: 'thread-1',
      events: [e],
    }));
    const seen = await panel.page.evaluate((messages) => {
      const text = () => document.querySelector('.message.assistant .message-body')?.textContent ?? '';
      for (const data of messages) window.dispatchEvent(new MessageEvent('message', { data }));
      const before = text();
      return new Promise<[string, string]>((resolve) => requestAnimationFrame(() => resolve([before, text()])));
    }, batches);
    expect(seen[0]).toBe('');
    expect(seen[1].trim()).toBe('one two three');
  });

  it('ignore a late batch of another thread', async () => {
    const panel = await harness.open();
    const s = new ThreadScript('thread-1');
    await panel.send(stateMessage('thread-1', [s.started('root')]));
    await panel.send({ type: 'events', threadId: 'thread-9', events: [new ThreadScript('thread-9').started('stray')] });
    await panel.send({ type: 'events', threadId: 'thread-1', events: [s.delta('root', 'mine')] });
    await expect.poll(() => panel.page.locator('.message.assistant .message-body').innerText()).toBe('mine');
    expect(await panel.page.locator('[data-run-id="stray"]').count()).toBe(0);
  });

  it('show an error status with its error text', async () => {
    const panel = await harness.open();
    const s = new ThreadScript('thread-1');
    await panel.send(stateMessage('thread-1', [s.started('root'), s.finished('root', 'error', '', 'The model returned 401: bad key.')]));
    const error = panel.page.locator('.message.assistant[data-state="error"] .message-error');
    await error.waitFor();
    expect(await error.innerText()).toContain('The model returned 401: bad key.');
    expect(await panel.page.locator('.message.assistant').getAttribute('aria-busy')).toBe('false');
  });
});

describe('markdown from models', () => {
  const hostile = [
    '# Findings',
    '',
    '**bold** and a [safe link](https://example.com/docs) and a [bad link](javascript:alert(1)).',
    '',
    '<img src="x" onerror="window.__xss = 1">',
    '<script>window.__xss = 2</script>',
    '<span style="color: red" onclick="window.__xss = 3">styled</span>',
    '<iframe src="https://example.com"></iframe>',
  ].join('\n');

  it('is rendered; raw HTML in it shows as text and runs nothing', async () => {
    const panel = await harness.open();
    const s = new ThreadScript('thread-1');
    await panel.send(
      stateMessage('thread-1', [
        s.started('root'),
        s.started('c', { parent: 'root' }),
        s.finished('c', 'ok', hostile),
        s.finished('root', 'ok', hostile),
      ]),
    );
    const answer = panel.page.locator('.message.assistant[data-state="ok"] .message-body');
    await answer.locator('h1').waitFor();
    await panel.page.locator('.run-node[data-run-id="c"] > .run-header').click();
    const childOutput = panel.page.locator('.run-node[data-run-id="c"] .run-output');
    await childOutput.locator('h1').waitFor();
    for (const body of [answer, childOutput]) {
      expect(await body.locator('h1').innerText()).toBe('Findings');
      expect(await body.locator('strong').innerText()).toBe('bold');
      expect(await body.locator('a', { hasText: 'safe link' }).getAttribute('href')).toBe('https://example.com/docs');
      expect(await body.locator('a', { hasText: 'bad link' }).getAttribute('href')).toBeNull();
      expect(await body.locator('img, script, iframe, span, [style], [onclick], [onerror]').count()).toBe(0);
      expect(await body.innerText()).toContain('<img src="x" onerror="window.__xss = 1">');
      expect(await body.innerText()).toContain('<script>window.__xss = 2</script>');
    }
    await panel.settle();
    expect(await panel.page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    expect(await panel.cspViolations()).toEqual([]);
  });
});

describe('a big tree', () => {
  it("of 1,000 runs and 10,000 tool events holds every run, one line per child, and each run's content when opened and scrolled to", async () => {
    const panel = await harness.open();
    const s = new ThreadScript('thread-big');
    await panel.send(stateMessage('thread-big', bigTree(s, 1000, 5)));
    await panel.page.locator('.message.assistant[data-state="ok"]').waitFor();
    const tree = panel.page.locator('.turn[data-run-id="r0"] .run-tree');
    const runs = tree.locator('[role="treeitem"].run-node');
    expect(await runs.count()).toBe(999);
    expect(await tree.locator('.run-node[data-state="ok"]').count()).toBe(999);
    expect(await tree.locator('.run-node[data-depth="2"]').count()).toBe(969);
    // The turn shows its 30 children, one line each, after the top run's own 5 tool calls.
    expect(await tree.locator(':scope > .run-node').count()).toBe(30);
    expect(await tree.locator(':scope > .tool-call').count()).toBe(5);
    expect(await tree.locator(':scope > .run-node > .run-header .run-agent').count()).toBe(30);
    // Grandchildren are nested in their parent's group, collapsed away.
    expect(await tree.locator('[data-run-id="r1"] > [role="group"] > [data-run-id="r31"]').count()).toBe(1);
    expect(await tree.locator('[data-run-id="r31"]').isVisible()).toBe(false);
    // Opened, a child shows its calls and its grandchildren's lines.
    const first = tree.locator('[data-run-id="r1"]');
    await first.locator('> .run-header').click();
    await expect.poll(() => first.locator('> [role="group"] > .tool-call[data-state="done"]').count()).toBe(5);
    await first.locator('[data-run-id="r31"] .run-agent').waitFor();
    // The last child, scrolled to and opened.
    const last = tree.locator(':scope > .run-node').last();
    await last.scrollIntoViewIfNeeded();
    await last.locator('> .run-header .run-agent').waitFor();
    await last.locator('> .run-header').click();
    const output = last.locator('> .run-result .run-output');
    await expect
      .poll(async () => {
        await output.scrollIntoViewIfNeeded();
        return output.innerText();
      })
      .toContain('Finished');
    expect(await last.locator('> [role="group"] > .tool-call[data-tool="read_file"][data-state="done"]').count()).toBe(5);
    expect(await last.locator('> .run-header .run-agent').innerText()).toBe(await last.getAttribute('data-agent'));
    expect(panel.errors).toEqual([]);
  });
});
