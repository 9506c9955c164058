import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, stateMessage, ThreadScript, type Harness } from './harness';

// While a thread works: Send becomes Stop, a message sent then is queued (chips above the box),
// the snapshot and the live stream fold each event once, and a finished run offers no approval.

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(async () => {
  await harness?.close();
});

describe('sending while the thread works', () => {
  it('turns Send into Stop, queues what is typed, shows it as a chip and removes it by keyboard', async () => {
    const panel = await harness.open();
    const s = new ThreadScript();
    await panel.send(stateMessage('thread-1', [s.started('root')], { busy: true }));
    const page = panel.page;
    await page.locator('#stop').waitFor({ state: 'visible' });
    expect(await page.locator('#send').isHidden()).toBe(true);
    expect(await page.locator('#queue-send').isHidden()).toBe(true);
    expect(await page.locator('#prompt').getAttribute('placeholder')).toMatch(/queues your message/);

    await page.locator('#prompt').fill('also check the tests');
    await page.locator('#queue-send').waitFor({ state: 'visible' });
    await page.locator('#prompt').press('Enter');
    await expect.poll(() => panel.postedOf('send')).toEqual([{ type: 'send', text: 'also check the tests' }]);
    expect(await page.locator('#prompt').inputValue()).toBe('');
    await page.locator('#prompt').fill('and the docs');
    await page.locator('#queue-send').click();
    await expect.poll(() => panel.postedOf('send')).toHaveLength(2);

    // The host answers with the queue; the chips show it, oldest first.
    await panel.send({
      type: 'queued',
      threadId: 'thread-1',
      queued: [
        { id: 'q1', text: 'also check the tests' },
        { id: 'q2', text: 'and the docs' },
      ],
    });
    const chips = page.locator('#queue .queue-chip');
    await expect.poll(() => chips.allInnerTexts()).toEqual(['also check the tests', 'and the docs']);

    // Keyboard only: Tab from the prompt box back to the first chip's remove button, then Enter.
    await page.locator('#prompt').focus();
    await page.keyboard.press('Shift+Tab');
    for (
      let i = 0;
      i < 4 && !(await page.evaluate(() => document.activeElement?.closest('[data-queue-id]')?.getAttribute('data-queue-id')));
      i++
    )
      await page.keyboard.press('Shift+Tab');
    const focusedChip = await page.evaluate(() => document.activeElement?.closest('[data-queue-id]')?.getAttribute('data-queue-id'));
    expect(focusedChip).toBe('q2');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Remove queued message: and the docs');
    await page.keyboard.press('Enter');
    await expect.poll(() => panel.postedOf('unqueue')).toEqual([{ type: 'unqueue', id: 'q2' }]);
    await expect.poll(() => chips.count()).toBe(1);
    // The keyboard stays in the chips.
    expect(await page.evaluate(() => document.activeElement?.closest('[data-queue-id]')?.getAttribute('data-queue-id'))).toBe('q1');

    // Sent: the queue empties, the thread is quiet, Stop is Send again.
    await panel.send({ type: 'queued', threadId: 'thread-1', queued: [] }, { type: 'busy', busy: false });
    await page.locator('#send').waitFor({ state: 'visible' });
    expect(await page.locator('#queue').isHidden()).toBe(true);
    expect(await page.locator('#stop').isHidden()).toBe(true);
    expect(await panel.cspViolations()).toEqual([]);
    expect(panel.errors).toEqual([]);
  });

  it('Stop then Send: the message is posted, not lost, while the stopped runs end', async () => {
    const panel = await harness.open();
    const s = new ThreadScript();
    await panel.send(stateMessage('thread-1', [s.started('root')], { busy: true }));
    await panel.page.locator('#stop').click();
    await panel.waitForPosted((m) => m.type === 'cancel');
    await panel.page.locator('#prompt').fill('do this instead');
    await panel.page.locator('#prompt').press('Enter');
    expect(await panel.waitForPosted((m) => m.type === 'send')).toEqual({ type: 'send', text: 'do this instead' });
  });

  it("shows the queue of the state it is given, and ignores another thread's", async () => {
    const panel = await harness.open();
    await panel.send(stateMessage('thread-1', [], { busy: true, queued: [{ id: 'q7', text: 'waiting' }] }));
    await panel.page.locator('#queue [data-queue-id="q7"]').waitFor();
    await panel.send({ type: 'queued', threadId: 'thread-other', queued: [] });
    await panel.settle();
    expect(await panel.page.locator('#queue .queue-chip').count()).toBe(1);
  });
});

describe('a snapshot and the live stream', () => {
  it('fold each event once: an overlapping batch after the state neither repeats text nor leaves a run running', async () => {
    const panel = await harness.open();
    const s = new ThreadScript();
    const events = [
      s.started('root', { task: 'Explain' }),
      s.delta('root', 'Hello '),
      s.delta('root', 'world'),
      s.toolStarted('root', 'k1', 'read_file', { path: 'a' }),
      s.toolFinished('root', 'k1', 'read_file', 'x'),
      s.finished('root', 'ok', 'Hello world'),
    ];
    // The snapshot was read after the first three events; the stream held them from before the load.
    await panel.send(stateMessage('thread-1', events.slice(0, 3), { busy: true }), {
      type: 'events',
      threadId: 'thread-1',
      events: events.slice(1),
    });
    const answer = panel.page.locator('.message.assistant[data-run-id="root"]');
    await answer.locator('xpath=self::*[@data-state="ok"]').waitFor();
    expect(await answer.locator('.message-body').innerText()).toBe('Hello world');
    expect(await panel.page.locator('.tool-call[data-tool-call-id="k1"]').count()).toBe(1);
    // A repeat that comes later changes nothing either.
    await panel.send({ type: 'events', threadId: 'thread-1', events: [events[1]!, events[2]!] });
    await panel.settle();
    expect(await answer.locator('.message-body').innerText()).toBe('Hello world');
  });
});

describe('a finished run', () => {
  it('offers no Approve/Deny for what it left waiting', async () => {
    const panel = await harness.open();
    const s = new ThreadScript();
    await panel.send(
      stateMessage(
        'thread-1',
        [
          s.started('root'),
          s.toolStarted('root', 'w', 'write_file', { path: 'a' }),
          s.approvalRequested('root', 'ap', 'w', 'write_file', { path: 'a' }),
        ],
        { busy: true },
      ),
    );
    const call = panel.page.locator('.tool-call[data-tool-call-id="w"]');
    await call.locator('.approve').waitFor();
    await panel.send({ type: 'events', threadId: 'thread-1', events: [s.finished('root', 'interrupted')] });
    // A run that ended interrupted was cut off by a reload: its waiting approval says so (issue 42), not "expired".
    await call.locator('.approval-outcome.cancelled', { hasText: 'cancelled (window reloaded)' }).waitFor();
    expect(await panel.page.locator('.approve, .deny').count()).toBe(0);
    expect(await call.getAttribute('data-state')).toBe('error');
  });
});

describe('notices', () => {
  it('about one conversation show only in it: hidden while another is shown, back on the way back', async () => {
    const panel = await harness.open();
    await panel.send(stateMessage('thread-1', []));
    await panel.send({ type: 'notice', level: 'error', message: 'Your message "x" was not sent: the disk is full.', threadId: 'thread-1' });
    await panel.send({ type: 'notice', level: 'info', message: 'The model is now openai:gpt-4.1.' });
    const notices = panel.page.locator('#problems .problems-notices .problem:not([hidden])');
    await expect.poll(() => notices.count()).toBe(2);
    await panel.send(stateMessage('thread-2', []));
    await expect.poll(() => notices.allInnerTexts()).toEqual(['The model is now openai:gpt-4.1.']);
    await panel.send({ type: 'notice', level: 'error', message: 'late, about thread 1', threadId: 'thread-1' });
    await panel.settle();
    expect(await notices.count()).toBe(1);
    await panel.send(stateMessage('thread-1', []));
    await expect
      .poll(() => notices.allInnerTexts())
      .toEqual(['Your message "x" was not sent: the disk is full.', 'The model is now openai:gpt-4.1.', 'late, about thread 1']);
  });
});
