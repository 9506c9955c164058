import { createInterface } from 'node:readline/promises';

export interface TerminalPromptOptions {
  input: NodeJS.ReadableStream & { isTTY?: boolean };
  /** Where questions go: stderr, so stdout stays the answer (or the JSON events). */
  output: NodeJS.WritableStream;
}

/**
 * One terminal, one question at a time: parallel subagents' approvals and the supervisor's
 * questions queue up instead of talking over each other. Resolves undefined without a terminal
 * (piped stdin, CI) or when the asker's run is cancelled while it waits.
 */
export function terminalPrompt(options: TerminalPromptOptions) {
  let queue: Promise<unknown> = Promise.resolve();
  const askNow = async (question: string, signal: AbortSignal): Promise<string | undefined> => {
    if (signal.aborted) return undefined;
    const rl = createInterface({ input: options.input, output: options.output, terminal: true });
    try {
      return await rl.question(question, { signal });
    } catch {
      return undefined; // aborted while waiting: the run is ending
    } finally {
      rl.close();
    }
  };
  return {
    get interactive(): boolean {
      return options.input.isTTY === true;
    },
    ask(question: string, signal: AbortSignal): Promise<string | undefined> {
      if (!options.input.isTTY) return Promise.resolve(undefined);
      const next = queue.then(() => askNow(question, signal));
      queue = next.catch(() => undefined);
      return next;
    },
  };
}

export type TerminalPrompt = ReturnType<typeof terminalPrompt>;
