import { createInterface } from 'node:readline/promises';
import type { ApprovalDecision } from '../shared/events';
import type { ApprovalRequest, Approver } from '../core/ports';
import type { ApprovalMode } from './workspaceSettings';

export interface TerminalApproverOptions {
  mode: ApprovalMode;
  input: NodeJS.ReadableStream & { isTTY?: boolean };
  /** Where questions go: stderr, so stdout stays the answer (or the JSON events). */
  output: NodeJS.WritableStream;
}

function summarize(input: unknown): string {
  const text = typeof input === 'string' ? input : JSON.stringify(input);
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

/**
 * Answers the engine's approval requests in a terminal. `trust` approves what the gate still asks
 * about; otherwise the user is asked y/N on stderr, one question at a time. Without a terminal
 * (piped stdin, CI) nobody can answer, so the request is denied and the agent is told why.
 */
export function terminalApprover(options: TerminalApproverOptions): Approver {
  let queue: Promise<unknown> = Promise.resolve();
  const ask = async (request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision> => {
    if (signal.aborted) return 'denied';
    const rl = createInterface({ input: options.input, output: options.output, terminal: true });
    try {
      const question = `\nApprove ${request.tool} ${summarize(request.input)}?\n  (${request.reason}) [y/N] `;
      const answer = await rl.question(question, { signal });
      return /^y(es)?$/i.test(answer.trim()) ? 'approved' : 'denied';
    } catch {
      return 'denied'; // aborted while waiting: the run is ending
    } finally {
      rl.close();
    }
  };
  return {
    request(request, signal) {
      if (options.mode === 'trust') return Promise.resolve('approved');
      if (!options.input.isTTY) {
        options.output.write(`subagents: denied ${request.tool} (${request.reason}): no terminal to ask; use --approval trust to allow it.\n`);
        return Promise.resolve('denied');
      }
      const next = queue.then(() => ask(request, signal));
      queue = next.catch(() => undefined);
      return next;
    },
  };
}
