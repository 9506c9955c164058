/**
 * An agent's plan as a checklist: what `todo_write` takes, and what the panel and the CLI show on
 * the agent's node. The latest call's items are the plan (each call sends the whole list), so the
 * list is read back from the run's tool calls, live and after a reload alike.
 */

export const TODO_TOOL = 'todo_write';

export type TodoStatus = 'pending' | 'in_progress' | 'done';

export interface TodoItem {
  text: string;
  status: TodoStatus;
}

const STATUSES: readonly string[] = ['pending', 'in_progress', 'done'];

/** The items of a todo_write input, or undefined when it is not one (a forged or broken call). */
export function todoItemsOf(input: unknown): TodoItem[] | undefined {
  if (typeof input !== 'object' || input === null || !('items' in input) || !Array.isArray(input.items)) return undefined;
  const items: TodoItem[] = [];
  for (const item of input.items as unknown[]) {
    if (typeof item !== 'object' || item === null) return undefined;
    const { text, status } = item as { text?: unknown; status?: unknown };
    if (typeof text !== 'string' || typeof status !== 'string' || !STATUSES.includes(status)) return undefined;
    items.push({ text, status: status as TodoStatus });
  }
  return items;
}

/** The plan of a run: the items of its last todo_write call that was not refused. */
export function latestTodoList(calls: readonly { tool: string; input: unknown; state?: string }[]): TodoItem[] | undefined {
  for (let i = calls.length - 1; i >= 0; i--) {
    const call = calls[i]!;
    if (call.tool !== TODO_TOOL || call.state === 'error') continue;
    const items = todoItemsOf(call.input);
    if (items) return items;
  }
  return undefined;
}

const MARK: Record<TodoStatus, string> = { pending: '[ ]', in_progress: '[~]', done: '[x]' };

/** One line for a terminal: `plan 1/3: [x] read the code  [~] fix the bug  [ ] run the tests`. */
export function todoLine(items: readonly TodoItem[], maxItemChars = 60): string {
  const done = items.filter((i) => i.status === 'done').length;
  const parts = items.map((i) => `${MARK[i.status]} ${i.text.length > maxItemChars ? `${i.text.slice(0, maxItemChars - 1)}…` : i.text}`);
  return `plan ${done}/${items.length}: ${parts.join('  ')}`;
}
