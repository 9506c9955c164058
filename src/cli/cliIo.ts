import type { Logger } from '../core/ports';

/** The streams a command talks to: stdout for results, stderr for progress and messages. */
export interface CliIo {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

export const processIo: CliIo = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr };

/** Warnings and errors on stderr; info and debug only with SUBAGENTS_DEBUG=1. */
export function stderrLogger(io: CliIo, debug = process.env.SUBAGENTS_DEBUG === '1'): Logger {
  const line = (level: string, message: string) => io.stderr.write(`subagents: ${level}: ${message}\n`);
  return {
    debug: (m) => debug && line('debug', m),
    info: (m) => debug && line('info', m),
    warn: (m) => line('warning', m),
    error: (m) => line('error', m),
  };
}

/** Reads all of stdin (for `run -`). */
export async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}
