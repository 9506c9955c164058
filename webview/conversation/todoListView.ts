import type { RunNode } from '../../src/shared/runTree';
import { latestTodoList, type TodoItem, type TodoStatus } from '../../src/shared/todoList';
import { codicon, h } from '../kit/dom';

/**
 * An agent's plan (its latest `todo_write`) as a checklist, kept up to date as the run calls the
 * tool again: a subagent's in its node's body (under the task), the top agent's in its answer, above
 * the turn's tree. Self-contained: the views call it when a run's tool calls changed, and it keeps
 * its own element per container.
 */

const ICON: Record<TodoStatus, string> = { pending: 'circle-large-outline', in_progress: 'arrow-circle-right', done: 'pass-filled' };
const LABEL: Record<TodoStatus, string> = { pending: 'to do', in_progress: 'in progress', done: 'done' };

const lists = new WeakMap<HTMLElement, { el: HTMLElement; shown: string }>();

/** Draws `node`'s plan in `body` (before `before` when given), or takes it away when it has none. */
export function renderTodoList(body: HTMLElement, node: RunNode, before?: Element): void {
  const items = latestTodoList(node.toolCalls);
  const known = lists.get(body);
  if (!items) {
    known?.el.remove();
    lists.delete(body);
    return;
  }
  const shown = JSON.stringify(items);
  if (known?.shown === shown) return;
  const el = h(
    'div',
    { class: 'todo-list', role: 'group', 'aria-label': `Plan: ${items.filter((i) => i.status === 'done').length} of ${items.length} done` },
    ...items.map(itemRow),
  );
  if (known) known.el.replaceWith(el);
  else if (before) body.insertBefore(el, before);
  else body.append(el);
  lists.set(body, { el, shown });
}

function itemRow(item: TodoItem): HTMLElement {
  return h(
    'div',
    { class: `todo-item todo-${item.status.replace('_', '-')}`, title: LABEL[item.status] },
    codicon(ICON[item.status]),
    h('span', { class: 'todo-text' }, item.text),
    h('span', { class: 'sr-only' }, ` (${LABEL[item.status]})`),
  );
}
