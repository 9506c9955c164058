import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agent, makeEngine } from '../unit/core/engineHarness';
import { programmedModel } from '../unit/core/programmedModel';
import { stateMessage, startHarness, type Harness } from './harness';

// The delegation behaviours as the user sees them: the real engine produces the events (a
// background subagent, a returnDirectly answer, a profile timeout, an unknown name), and the panel
// in real Chromium shows each on its own node of the run tree.

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(async () => {
  await harness?.close();
});

async function engineEvents() {
  const h = makeEngine(
    {
      agents: {
        a: [{ delayMs: 30, text: 'background findings' }],
        writer: [{ text: 'The **final** words.' }],
        slow: [{ delayMs: 60_000, text: 'late' }],
      },
    },
    {
      agents: {
        a: agent('background helper'),
        writer: agent('writes', { returnDirectly: true }),
        slow: agent('too slow', { timeoutMs: 40 }),
      },
      model: (c) =>
        c.agent === 'supervisor'
          ? programmedModel(({ call }) =>
              call === 0
                ? {
                    toolCalls: [
                      { tool: 'delegate_task', input: { task: 'dig in the background', agents: ['a'], background: true } },
                      { tool: 'delegate_task', input: { task: 'write it', agents: ['writer', 'slow', 'ghost'] } },
                    ],
                  }
                : { text: 'never: the writer answered directly' },
            )
          : undefined,
    },
  );
  const { threadId, done } = await h.engine.send({ prompt: 'Write the release note' });
  const finished = await done;
  await h.engine.whenQuiet(threadId);
  return { threadId, events: h.events, rootRunId: finished.runId };
}

describe('engine runs in the panel', () => {
  it('shows background, bailed, timed-out and skipped delegations on their own nodes', async () => {
    const { threadId, events, rootRunId } = await engineEvents();
    const panel = await harness.open();
    await panel.send(stateMessage(threadId, events));
    const page = panel.page;
    await page.locator(`.message.assistant[data-run-id="${rootRunId}"][data-state="ok"]`).waitFor();
    expect(await page.locator(`.message.assistant[data-run-id="${rootRunId}"]`).innerText()).toContain('returned directly');
    expect(await page.locator(`.message.assistant[data-run-id="${rootRunId}"] strong`).innerText()).toBe('final');

    const children = await page
      .locator('.run-tree [role="treeitem"][data-depth="1"]')
      .evaluateAll((els) => els.map((e) => `${e.getAttribute('data-agent')}:${e.getAttribute('data-state')}`).sort());
    expect(children).toEqual(['a:ok', 'slow:timeout', 'writer:ok']);

    // The two delegations are shown as the runs they started, under the answer, not as calls.
    const tree = page.locator(`.turn[data-run-id="${rootRunId}"] .run-tree`);
    expect(await tree.locator(':scope > .run-node').evaluateAll((els) => els.map((e) => e.getAttribute('data-agent')))).toEqual([
      'a',
      'writer',
      'slow',
    ]);
    expect(await tree.locator('.tool-call[data-tool="delegate_task"]').count()).toBe(0);
    expect(await page.locator(`.message.assistant[data-run-id="${rootRunId}"] .message-warnings .run-warning`).innerText()).toContain(
      '"ghost"',
    );
    // Collapsed, the timed-out run says why on its line; opened, in its body too.
    const slow = tree.locator('[data-agent="slow"]');
    expect(await slow.locator('.run-activity').innerText()).toContain('Timed out after 40 ms');
    await slow.locator('> .run-header').click();
    expect(await slow.locator('.run-error').innerText()).toContain('Timed out after 40 ms');
    expect(panel.errors).toEqual([]);
  });
});
