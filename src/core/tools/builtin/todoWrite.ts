import { z } from 'zod';
import { lazySchema } from '../../../shared/lazySchema';
import { TODO_TOOL } from '../../../shared/todoList';
import { defineTool, type AnyToolSpec } from '../toolSpec';

const inputSchema = lazySchema(() => {
  const item = z.object({
    text: z.string().trim().min(1).max(500).describe('A step, in a few words.'),
    status: z.enum(['pending', 'in_progress', 'done']),
  });
  return z.object({
    items: z.array(item).max(50).describe('The whole plan, in order.'),
  });
});

/**
 * `todo_write`: the agent's plan as a checklist, shown live on its node in the panel and as a line
 * in the CLI (both read it from the call's input). It changes nothing, so it asks nothing, and
 * subagents may use it too.
 */
export function todoWriteTool(): AnyToolSpec {
  return defineTool<z.infer<typeof inputSchema>>({
    name: TODO_TOOL,
    description:
      'Your plan as a checklist the user sees; send the whole list on every call. Use it for work of three steps or more, ' +
      'marking each step in_progress, then done.',
    capabilities: [],
    inputSchema,
    async execute({ items }) {
      const count = (s: string) => items.filter((i) => i.status === s).length;
      return `Plan updated: ${count('done')} done, ${count('in_progress')} in progress, ${count('pending')} pending.`;
    },
  });
}
