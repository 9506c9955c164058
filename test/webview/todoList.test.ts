import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stateMessage, ThreadScript, type Harness } from './harness';

// todo_write's plan: a subagent's on its node, the top agent's in its answer, kept live as it updates it.

let harness: Harness;
beforeAll(async () => {
  const { startHarness } = await import('./harness');
  harness = await startHarness();
});
afterAll(async () => {
  await harness?.close();
});

const plan = (items: [string, string][]) => ({ items: items.map(([text, status]) => ({ text, status })) });

describe("an agent's plan", () => {
  it("shows a subagent's latest todo_write as a checklist on its node, live", async () => {
    const panel = await harness.open();
    const s = new ThreadScript();
    await panel.send(
      stateMessage(
        'thread-1',
        [s.started('root', { task: 'Fix the bug' }), s.started('a', { parent: 'root', agent: 'fixer', task: 'fix it' })],
        { busy: true },
      ),
    );
    await panel.send({
      type: 'events',
      threadId: 'thread-1',
      events: [
        s.toolStarted(
          'a',
          't1',
          'todo_write',
          plan([
            ['read the code', 'in_progress'],
            ['fix the bug', 'pending'],
          ]),
        ),
        s.toolFinished('a', 't1', 'todo_write', 'Plan updated'),
      ],
    });
    const node = panel.page.locator('.run-node[data-run-id="a"]');
    await node.locator('> .run-header').click();
    const list = node.locator('.run-body .todo-list');
    await list.waitFor();
    expect(await list.locator('.todo-text').allInnerTexts()).toEqual(['read the code', 'fix the bug']);
    expect(await list.locator('.todo-in-progress .todo-text').innerText()).toBe('read the code');
    await panel.send({
      type: 'events',
      threadId: 'thread-1',
      events: [
        s.toolStarted(
          'a',
          't2',
          'todo_write',
          plan([
            ['read the code', 'done'],
            ['fix the bug', 'in_progress'],
            ['run the tests', 'pending'],
          ]),
        ),
      ],
    });
    await list.locator('.todo-item').nth(2).waitFor();
    expect(await node.locator('.todo-list').count()).toBe(1);
    expect(await list.locator('.todo-done .todo-text').innerText()).toBe('read the code');
    expect(await list.getAttribute('aria-label')).toBe('Plan: 1 of 3 done');
    expect(panel.errors).toEqual([]);
  });

  it("shows the top agent's plan in its answer, above the turn's tree", async () => {
    const panel = await harness.open();
    const s = new ThreadScript();
    await panel.send(
      stateMessage(
        'thread-1',
        [s.started('root', { task: 'Plan it' }), s.toolStarted('root', 't1', 'todo_write', plan([['delegate', 'in_progress']]))],
        { busy: true },
      ),
    );
    const answer = panel.page.locator('.message.assistant[data-run-id="root"]');
    await answer.locator('> .todo-list').waitFor();
    expect(await answer.locator('> .todo-list .todo-text').innerText()).toBe('delegate');
    // It sits before the turn's tree.
    expect(
      await answer.evaluate(
        (el) =>
          [...el.children].findIndex((c) => c.classList.contains('todo-list')) <
          [...el.children].findIndex((c) => c.classList.contains('run-tree')),
      ),
    ).toBe(true);
    expect(panel.errors).toEqual([]);
  });
});
