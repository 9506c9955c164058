import { createHash } from 'node:crypto';

/**
 * The thread of a child run is derived, not random: the same parent thread, agent and tool call
 * always name the same child thread, so a replayed tool call finds the run it already started.
 */
export function childThreadId(parentThreadId: string, agent: string, toolCallId: string): string {
  const hash = createHash('sha256').update(`${parentThreadId}\u0000${agent}\u0000${toolCallId}`).digest('hex');
  return `c_${hash.slice(0, 24)}`;
}
