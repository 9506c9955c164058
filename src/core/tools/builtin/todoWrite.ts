import { z } from 'zod';
import { lazySchema } from '../../../shared/lazySchema';
import { TODO_TOOL } from '../../../shared/todoList';
import { defineTool, type AnyToolSpec } from '../toolSpec';

const inputSchema = lazySchema(() => {
  const item = z.object({
    text: z.string().trim().min(1).max(500).describe('One step, in a few words.'),
    status: z.enum(['pending', 'in_progress', 'done']).describe('pending, in_progress (what you work on now) or done.'),
  });
  return z.object({
    items: z.array(item).max(50).describe('The whole plan, in order: every call replaces the list.'),
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
      'Keep your plan as a checklist the user sees live: send the whole list each time, with each step pending, in_progress or done. ' +
      'Use it for work of three steps or more; mark a step in_progress when you start it and done as soon as it is finished.',
    capabilities: [],
    inputSchema,
    async execute({ items }) {
      const count = (s: string) => items.filter((i) => i.status === s).length;
      return `Plan updated: ${count('done')} done, ${count('in_progress')} in progress, ${count('pending')} pending.`;
    },
  });
}
