import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../src/shared/events';
import { startHarness, stateMessage, ThreadScript, TRUSTED_CONFIG, type Harness } from './harness';

// First run and retries as the user sees them in the panel.

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(async () => {
  await harness?.close();
});

describe('with no model set', () => {
  it('asks the host what is available, offers it by group, and sends back the id of a pick', async () => {
    const panel = await harness.open();
    await panel.send(stateMessage(null, [], { config: { ...TRUSTED_CONFIG, model: '' } }));
    await panel.waitForPosted((m) => m.type === 'listModels');
    const view = panel.page.locator('#model-choice');
    await view.getByText('Looking for models…').waitFor();

    await panel.send({
      type: 'modelChoices',
      notes: ['No language model is available from the editor.'],
      choices: [
        { id: 'ollama:llama3.2', group: 'local', label: 'llama3.2', detail: 'Ollama on http://127.0.0.1:11434' },
        { id: 'key:openai', group: 'key', label: 'Enter an OpenAI API key…', detail: 'Kept in secret storage' },
      ],
    });
    await view.locator('[data-choice-id="ollama:llama3.2"]').waitFor();
    expect(await view.locator('.model-choice-note').innerText()).toContain('No language model is available from the editor.');
    expect(await view.locator('.model-choice-group h3').allInnerTexts()).toEqual(['On this machine', 'With an API key']);

    await view.locator('[data-choice-id="key:openai"]').click();
    expect(await panel.waitForPosted((m) => m.type === 'chooseModel')).toEqual({ type: 'chooseModel', id: 'key:openai' });

    // The host saved a model: the view goes away.
    await panel.send({ type: 'config', config: { ...TRUSTED_CONFIG, model: 'openai:gpt-4.1' } });
    await view.waitFor({ state: 'hidden' });
    expect(panel.errors).toEqual([]);
  });

  it('stays hidden when a model is set', async () => {
    const panel = await harness.open();
    await panel.send(stateMessage(null, []));
    await panel.settle();
    expect(await panel.page.locator('#model-choice').isHidden()).toBe(true);
    expect((await panel.posted()).some((m) => m.type === 'listModels')).toBe(false);
  });
});

describe('a run that retries', () => {
  it('shows the retry on its message and its tree node while it waits, then its state again', async () => {
    const panel = await harness.open();
    const s = new ThreadScript();
    const retrying = (runId: string, attempt: number): RunEvent => ({
      ...s.delta(runId, ''),
      kind: 'run.retrying',
      attempt,
      maxRetries: 4,
      delayMs: 2000,
      error: '429: rate limited',
    });
    await panel.send(
      stateMessage('thread-1', [
        s.started('r1'),
        retrying('r1', 1),
        s.delta('r1', 'ok'),
        s.started('c1', { parent: 'r1' }),
        retrying('c1', 2),
      ]),
    );
    const node = panel.page.locator('[data-run-id="c1"] .run-state').first();
    await node.getByText('retry 2/4 in 2 s · 429: rate limited').waitFor();
    const status = panel.page.locator('.message.assistant .message-status');
    expect(await status.innerText()).toBe('working…');

    await panel.send({ type: 'events', threadId: 'thread-1', events: [s.delta('c1', 'back'), retrying('r1', 3)] });
    await node.getByText('running').waitFor({ state: 'attached' });
    // Running again: said by the spinning icon and the live line, and in words to screen readers.
    expect(await node.getAttribute('class')).toBe('run-state sr-only');
    await status.getByText('retry 3/4 in 2 s · 429: rate limited').waitFor();
    expect(panel.errors).toEqual([]);
  });
});

describe('the empty panel with the demo model', () => {
  it('suggests the demo question; a click puts it in the prompt box (issue 42 item 4)', async () => {
    const panel = await harness.open();
    await panel.send(stateMessage(null, [], { config: { ...TRUSTED_CONFIG, model: 'scripted:.vscode/demo-script.json' } }));
    const starter = panel.page.locator('.empty-state .starter');
    await starter.waitFor();
    expect(await starter.innerText()).toBe('How are invoice totals computed, and is the rounding right?');
    await starter.click();
    expect(await panel.page.locator('#prompt').inputValue()).toBe('How are invoice totals computed, and is the rounding right?');
    expect(await panel.page.evaluate(() => document.activeElement?.id)).toBe('prompt');
    // Another model: no demo question.
    await panel.send(stateMessage(null, [], { config: TRUSTED_CONFIG }));
    await panel.settle();
    expect(await starter.count()).toBe(0);
  });
});
