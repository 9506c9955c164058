import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stateMessage, ThreadScript, type Harness } from './harness';

// todo_write's plan on its run's node: shown as a checklist and kept live as the agent updates it.

let harness: Harness;
beforeAll(async () => {
  const { startHarness } = await import('./harness');
  harness = await startHarness();
});
afterAll(async () => {
  await harness?.close();
});

describe("an agent's plan", () => {
  it('shows the latest todo_write as a checklist on the node, live', async () => {
    const panel = await harness.open();
    const s = new ThreadScript('thread-1');
    const plan = (items: [string, string][]) => ({ items: items.map(([text, status]) => ({ text, status })) });
    await panel.send(stateMessage('thread-1', [s.started('root', { task: 'Fix the bug' }), s.started('a', { parent: 'root', agent: 'fixer', task: 'fix it' })], { busy: true }));
    await panel.send({
      type: 'events',
      threadId: 'thread-1',
      events: [s.toolStarted('a', 't1', 'todo_write', plan([['read the code', 'in_progress'], ['fix the bug', 'pending']])), s.toolFinished('a', 't1', 'todo_write', 'Plan updated')],
    });
    const node = panel.page.locator('[role="treeitem"][data-run-id="a"]');
    await node.locator('.todo-list').waitFor();
    expect(await node.locator('.todo-text').allInnerTexts()).toEqual(['read the code', 'fix the bug']);
    expect(await node.locator('.todo-in-progress .todo-text').innerText()).toBe('read the code');
    await panel.send({
      type: 'events',
      threadId: 'thread-1',
      events: [s.toolStarted('a', 't2', 'todo_write', plan([['read the code', 'done'], ['fix the bug', 'in_progress'], ['run the tests', 'pending']]))],
    });
    await node.locator('.todo-item').nth(2).waitFor();
    expect(await node.locator('.todo-list').count()).toBe(1);
    expect(await node.locator('.todo-done .todo-text').innerText()).toBe('read the code');
    expect(await node.locator('.todo-list').getAttribute('aria-label')).toBe('Plan: 1 of 3 done');
    // The supervisor's node has no plan.
    expect(await panel.page.locator('[role="treeitem"][data-run-id="root"] > .run-body > .todo-list').count()).toBe(0);
    expect(panel.errors).toEqual([]);
  });
});
