import type { ModelMessage } from 'ai';
import type { RunEvent } from '../../shared/events';

/**
 * The conversation of a thread as model messages: each run's task as the user's turn and its
 * final output as the assistant's. Tool traffic is left out: the outputs carry what was learned,
 * and a continued thread stays small.
 */
export function threadHistory(threadId: string, events: readonly RunEvent[]): ModelMessage[] {
  const tasks = new Map<string, string>();
  const messages: ModelMessage[] = [];
  for (const e of events) {
    if (e.threadId !== threadId) continue;
    if (e.kind === 'run.started') tasks.set(e.runId, e.task);
    else if (e.kind === 'run.finished') {
      const task = tasks.get(e.runId);
      if (task === undefined) continue;
      messages.push({ role: 'user', content: task });
      const answer = e.output.trim() || (e.error ? `(The run ended with an error: ${e.error})` : '(No answer.)');
      messages.push({ role: 'assistant', content: answer });
    }
  }
  return messages;
}
