import type { ApprovalRequest, Approver } from '../core/ports';
import type { TerminalPrompt } from './terminalPrompt';
import { terminalSafe } from './terminalText';

export interface TerminalApproverOptions {
  prompt: TerminalPrompt;
  /** Where a denial without a terminal is explained: stderr. */
  output: NodeJS.WritableStream;
}

function summarize(input: unknown): string {
  const text = terminalSafe(typeof input === 'string' ? input : JSON.stringify(input));
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

/** A prefix as the user would type it after --allow-command. */
function shellQuote(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * Answers the engine's approval requests in a terminal, y/N on stderr. The approval mode is
 * applied before a request gets here (in trust mode only protected files and command lines that
 * cannot be judged still ask), so every request is a question for a person. Without a terminal
 * (piped stdin, CI) nobody can answer: the request is denied and the agent is told why.
 */
export function terminalApprover(options: TerminalApproverOptions): Approver {
  return {
    canAsk: () => options.prompt.interactive,
    allowCommandHint: (prefix) => `run with --allow-command ${shellQuote(prefix)}`,
    async request(request: ApprovalRequest, signal) {
      if (!options.prompt.interactive) {
        options.output.write(
          `subagents: not run: ${terminalSafe(request.tool)} (${terminalSafe(request.reason)}): no terminal to ask. ` +
            'Use --allow-command PREFIX for a command, or --approval autoEdit or trust; protected files always need a person.\n',
        );
        return 'denied';
      }
      const who = request.agent === 'supervisor' ? '' : ` [${terminalSafe(request.agent)}]`;
      const answer = await options.prompt.ask(
        `\nApprove${who} ${terminalSafe(request.tool)} ${summarize(request.input)}?\n  (${terminalSafe(request.reason)}) [y/N] `,
        signal,
      );
      return answer !== undefined && /^y(es)?$/i.test(answer.trim()) ? 'approved' : 'denied';
    },
  };
}
