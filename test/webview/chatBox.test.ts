import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withAttachedContext } from '../../src/shared/attachedContext';
import { startHarness, stateMessage, ThreadScript, TRUSTED_CONFIG, type Harness } from './harness';

// The prompt box is a chat box: the model in use and its picker, context attached as chips,
// Up-arrow recall, @agent with completion, queueing while the thread works, and Copy, Edit and
// Retry on the messages.

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(async () => {
  await harness?.close();
});

describe('the model', () => {
  it('is named in the box, the demo as "Demo (scripted)", and picked from what the chooser lists', async () => {
    const panel = await harness.open();
    await panel.send(stateMessage(null, [], { config: { ...TRUSTED_CONFIG, model: 'scripted:/home/u/demo/.vscode/demo-script.json' } }));
    const picker = panel.page.locator('#model-picker');
    await expect.poll(() => picker.innerText()).toBe('Demo (scripted)');
    expect(await picker.getAttribute('aria-label')).toBe(
      'Model: Demo (scripted) (scripted:/home/u/demo/.vscode/demo-script.json). Choose another',
    );

    await picker.click();
    await panel.waitForPosted((m) => m.type === 'listModels');
    await panel.page.locator('#model-menu', { hasText: 'Looking for models…' }).waitFor();
    await panel.send({
      type: 'modelChoices',
      notes: ['No model server answers on this machine.'],
      choices: [
        { id: 'lm:copilot/gpt-4o', group: 'editor', label: 'GPT-4o (Copilot)', detail: 'From the editor' },
        { id: 'key:openai', group: 'key', label: 'Enter an OpenAI API key…', detail: 'Kept in secret storage' },
      ],
    });
    const menu = panel.page.locator('#model-menu');
    await menu.locator('[data-choice-id="lm:copilot/gpt-4o"]').waitFor();
    expect(await menu.locator('.popup-group-title').allInnerTexts()).toEqual(['From the editor', 'With an API key']);
    expect(await menu.locator('.popup-note').innerText()).toContain('No model server answers');
    // Keyboard: the first choice has focus, Down moves, Enter picks.
    await panel.page.keyboard.press('ArrowDown');
    await panel.page.keyboard.press('Enter');
    expect(await panel.waitForPosted((m) => m.type === 'chooseModel')).toEqual({ type: 'chooseModel', id: 'key:openai' });
    await menu.waitFor({ state: 'hidden' });
    await panel.send({ type: 'config', config: { ...TRUSTED_CONFIG, model: 'openai:gpt-4.1' } });
    await expect.poll(() => picker.innerText()).toBe('gpt-4.1 (OpenAI)');

    // Escape closes it without a pick.
    await picker.click();
    await menu.waitFor();
    await panel.page.keyboard.press('Escape');
    await menu.waitFor({ state: 'hidden' });
    expect(await panel.postedOf('chooseModel')).toHaveLength(1);
    expect(await panel.cspViolations()).toEqual([]);
  });
});

describe('context', () => {
  it('is attached with the buttons or #file / #selection, shown as chips, removed, and sent with the prompt', async () => {
    const panel = await harness.open();
    await panel.send(stateMessage(null, []));
    const page = panel.page;
    await page.locator('#attach-file').click();
    expect(await panel.waitForPosted((m) => m.type === 'attach')).toEqual({ type: 'attach', kind: 'file' });

    // Typed: the token goes from the box and the host is asked for the selection.
    const prompt = page.locator('#prompt');
    await prompt.pressSequentially('Explain #sel');
    await page.locator('#prompt-completions [data-id="#selection"][aria-selected="true"]').waitFor();
    await prompt.press('Enter');
    await expect
      .poll(() => panel.postedOf('attach'))
      .toEqual([
        { type: 'attach', kind: 'file' },
        { type: 'attach', kind: 'selection' },
      ]);
    expect(await prompt.inputValue()).toBe('Explain ');
    expect(await panel.postedOf('send')).toEqual([]);

    await panel.send({
      type: 'attachments',
      items: [
        { id: 'at1', kind: 'file', label: 'src/invoice.ts' },
        { id: 'at2', kind: 'selection', label: 'src/money.ts:10-24' },
      ],
    });
    const chips = page.locator('#attachments .attachment-chip');
    await expect.poll(() => chips.allInnerTexts()).toEqual(['src/invoice.ts', 'src/money.ts:10-24']);
    await chips.first().locator('.attachment-remove').click();
    expect(await panel.waitForPosted((m) => m.type === 'detach')).toEqual({ type: 'detach', id: 'at1' });
    await expect.poll(() => chips.count()).toBe(1);

    await prompt.fill('Explain this');
    await prompt.press('Enter');
    expect(await panel.waitForPosted((m) => m.type === 'send')).toEqual({ type: 'send', text: 'Explain this', attachments: ['at2'] });
    expect(await chips.count()).toBe(0);
  });
});

describe('the box', () => {
  it('recalls the last prompts with Up in an empty box, and Down goes back', async () => {
    const panel = await harness.open();
    await panel.send(stateMessage(null, []));
    const prompt = panel.page.locator('#prompt');
    for (const text of ['first question', 'second question']) {
      await prompt.fill(text);
      await prompt.press('Enter');
    }
    await expect.poll(() => panel.postedOf('send')).toHaveLength(2);
    await prompt.press('ArrowUp');
    expect(await prompt.inputValue()).toBe('second question');
    await prompt.press('ArrowUp');
    expect(await prompt.inputValue()).toBe('first question');
    await prompt.press('End');
    await prompt.press('ArrowDown');
    expect(await prompt.inputValue()).toBe('second question');
    await prompt.press('End');
    await prompt.press('ArrowDown');
    expect(await prompt.inputValue()).toBe('');
    // Up in a box with text moves the caret, as ever.
    await prompt.fill('draft');
    await prompt.press('ArrowUp');
    expect(await prompt.inputValue()).toBe('draft');
  });

  it('completes @agent from the keyboard and sends the turn to that agent; an unknown name is said, not sent', async () => {
    const panel = await harness.open();
    await panel.send(stateMessage(null, []));
    const page = panel.page;
    const prompt = page.locator('#prompt');
    await prompt.pressSequentially('@re');
    const list = page.locator('#prompt-completions');
    await expect.poll(() => list.locator('.completion-label').allInnerTexts()).toEqual(['@researcher', '@reviewer']);
    expect(await prompt.getAttribute('aria-expanded')).toBe('true');
    expect(await prompt.getAttribute('aria-activedescendant')).toBe('completion-0');
    await prompt.press('ArrowDown');
    expect(await prompt.getAttribute('aria-activedescendant')).toBe('completion-1');
    await prompt.press('Tab');
    expect(await prompt.inputValue()).toBe('@reviewer ');
    expect(await list.isHidden()).toBe(true);
    await prompt.pressSequentially('check the rounding');
    await prompt.press('Enter');
    expect(await panel.waitForPosted((m) => m.type === 'send')).toEqual({ type: 'send', text: 'check the rounding', agent: 'reviewer' });

    await prompt.fill('@ghost do it');
    await prompt.press('Enter');
    const hint = page.locator('#prompt-hint');
    await hint.waitFor();
    expect(await hint.innerText()).toBe('There is no agent "ghost". Agents: @researcher, @reviewer.');
    expect(await prompt.inputValue()).toBe('@ghost do it');
    expect(await panel.postedOf('send')).toHaveLength(1);
    // Escape closes the list and keeps what was typed.
    await prompt.fill('');
    await prompt.pressSequentially('@');
    await list.waitFor();
    await prompt.press('Escape');
    expect(await list.isHidden()).toBe(true);
    expect(await prompt.inputValue()).toBe('@');
    expect(await panel.cspViolations()).toEqual([]);
  });

  it('queues what is sent while the thread works, with its agent, and Send is Stop meanwhile', async () => {
    const panel = await harness.open();
    const s = new ThreadScript();
    await panel.send(stateMessage('thread-1', [s.started('root')], { busy: true }));
    await panel.page.locator('#stop').waitFor();
    await panel.page.locator('#prompt').fill('@researcher also look at the tests');
    await panel.page.locator('#queue-send').click();
    expect(await panel.waitForPosted((m) => m.type === 'send')).toEqual({
      type: 'send',
      text: 'also look at the tests',
      agent: 'researcher',
    });
    await panel.send({ type: 'queued', threadId: 'thread-1', queued: [{ id: 'q1', text: 'also look at the tests' }] });
    await panel.page.locator('#queue [data-queue-id="q1"]').waitFor();
  });
});

describe('messages', () => {
  it('have Copy; the last prompt also Edit and Retry', async () => {
    const panel = await harness.open({ clipboard: true });
    const s = new ThreadScript();
    await panel.send(
      stateMessage('thread-1', [
        s.started('t1', { task: 'First question' }),
        s.finished('t1', 'ok', 'First **answer**.'),
        s.started('t2', { task: 'check the rounding', agent: 'reviewer' }),
        s.finished('t2', 'ok', 'Rounding is fine.'),
      ]),
    );
    const page = panel.page;
    await page.locator('.message.assistant[data-run-id="t2"][data-state="ok"]').waitFor();
    await page.locator('.message.assistant[data-run-id="t1"] .message-copy').click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe('First **answer**.');
    await page.locator('.turn[data-run-id="t1"] .message.user .message-copy').click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe('First question');

    // Only the last prompt can be edited or retried.
    expect(await page.locator('.turn[data-run-id="t1"] .message-edit').isVisible()).toBe(false);
    const last = page.locator('.turn[data-run-id="t2"] .message.user');
    await last.locator('.message-edit').click();
    // It was sent to @reviewer: the edit says so again.
    expect(await page.locator('#prompt').inputValue()).toBe('@reviewer check the rounding');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('prompt');
    await last.locator('.message-retry').click();
    expect(await panel.waitForPosted((m) => m.type === 'send')).toEqual({ type: 'send', text: 'check the rounding', agent: 'reviewer' });

    // A new turn moves Edit and Retry to it.
    await panel.send({ type: 'events', threadId: 'thread-1', events: [s.started('t3', { task: 'And now?' })] });
    await page.locator('.turn[data-run-id="t3"] .message-edit').waitFor();
    expect(await last.locator('.message-edit').isVisible()).toBe(false);
    expect(panel.errors).toEqual([]);
  });

  it("show the user's words with what was attached as chips, not the attached text", async () => {
    const panel = await harness.open({ clipboard: true });
    const s = new ThreadScript();
    const task = withAttachedContext('Why is this rounded twice?', [
      {
        kind: 'selection',
        path: 'src/money.ts',
        label: 'src/money.ts:10-12',
        startLine: 10,
        endLine: 12,
        text: 'const SECRET_LINE = round(round(x));',
      },
    ]);
    await panel.send(stateMessage('thread-1', [s.started('t1', { task }), s.finished('t1', 'ok', 'Because…')]));
    const user = panel.page.locator('.turn[data-run-id="t1"] .message.user');
    await user.locator('.attachment-chip').waitFor();
    expect(await user.locator('.user-text').innerText()).toBe('Why is this rounded twice?');
    expect(await user.locator('.attachment-chip').allInnerTexts()).toEqual(['src/money.ts:10-12']);
    expect(await user.innerText()).not.toContain('SECRET_LINE');
    await user.locator('.message-copy').click();
    await expect.poll(() => panel.page.evaluate(() => navigator.clipboard.readText())).toBe('Why is this rounded twice?');
    await user.locator('.message-edit').click();
    expect(await panel.page.locator('#prompt').inputValue()).toBe('Why is this rounded twice?');
    expect(await panel.cspViolations()).toEqual([]);
  });
});
