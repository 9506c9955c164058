import type { SendResult } from '../engine';
import type { PromptQueue } from './promptQueue';

/**
 * Sends a message through the queue, as the panel does, and resolves once its turn has started
 * (after the thread's current work, if any). Rejects with the engine's reason when the message
 * is refused, or when it is taken out of the queue before it was sent (the window closing).
 * `onQueued` hears the queued item at once, so the caller can take it out again (a cancel).
 */
export function sendQueued(
  queue: PromptQueue,
  request: { threadId: string; prompt: string; agent?: string; model?: string },
  onQueued: (item: { id: string; threadId: string }) => void = () => {},
): Promise<SendResult> {
  return new Promise((resolve, reject) => {
    let id: string | undefined;
    const early: Parameters<Parameters<PromptQueue['onChange']>[0]>[0][] = [];
    const settle = (change: (typeof early)[number]) => {
      if (change.kind === 'idle' || change.item.id !== id) return false;
      if (change.kind === 'sent') resolve(change.result);
      else if (change.kind === 'refused') reject(change.error instanceof Error ? change.error : new Error(String(change.error)));
      else if (change.kind === 'removed') reject(new Error('The message was taken out of the queue before it was sent.'));
      else return false;
      return true;
    };
    const off = queue.onChange((change) => {
      // A quiet thread sends in submit() itself, before its id is known here.
      if (id === undefined) early.push(change);
      else if (settle(change)) off();
    });
    try {
      const item = queue.submit(request);
      id = item.id;
      onQueued(item);
    } catch (error) {
      off();
      reject(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    if (early.some(settle)) off();
  });
}
