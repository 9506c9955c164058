import { z } from 'zod';
import { lazySchema } from '../../../shared/lazySchema';
import { defineTool, type AnyToolSpec } from '../toolSpec';
import type { WorkspaceToolDeps } from './toolDeps';

const inputSchema = lazySchema(() =>
  z.object({
    question: z.string().min(1).max(2000).describe('One clear question, with any options.'),
  }),
);

export function askUserTool({ workspace }: WorkspaceToolDeps): AnyToolSpec {
  return defineTool<z.infer<typeof inputSchema>>({
    name: 'ask_user',
    description: 'Ask the user a question and wait for the answer; only for a decision you cannot make yourself.',
    capabilities: ['interactive'],
    inputSchema,
    async execute(input, { signal }) {
      const answer = await workspace.askUser(input.question, signal);
      signal.throwIfAborted();
      if (answer === undefined)
        return { error: 'The user dismissed the question without answering. Go on with your best judgement and say what you assumed.' };
      return { answer };
    },
  });
}
