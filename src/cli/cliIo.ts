import type { Logger } from '../core/ports';
import type { Redactor } from '../core/access/secrets/redactor';
import { terminalSafe } from './terminalText';

/** The streams a command talks to: stdout for results, stderr for progress and messages. */
export interface CliIo {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

export const processIo: CliIo = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr };

/**
 * The same streams with every text written through them redacted: all the CLI prints (answers,
 * progress, approval prompts, errors, `threads show|export`) passes here. A proxy, so readline and
 * everything else still see the real stream's properties.
 */
export function redactingIo(io: CliIo, redactor: Redactor): CliIo {
  const wrap = <S extends NodeJS.WritableStream>(stream: S): S =>
    new Proxy(stream, {
      get(target, property) {
        if (property === 'write') {
          return (chunk: unknown, ...rest: unknown[]) =>
            (target.write as (...args: unknown[]) => boolean)(typeof chunk === 'string' ? redactor.redactText(chunk) : chunk, ...rest);
        }
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
  return { stdin: io.stdin, stdout: wrap(io.stdout), stderr: wrap(io.stderr) };
}

/** Warnings and errors on stderr; info and debug only with SUBAGENTS_DEBUG=1. */
export function stderrLogger(io: CliIo, debug = process.env.SUBAGENTS_DEBUG === '1'): Logger {
  // Warnings quote agent files, MCP servers and thread files: without terminal control sequences.
  const line = (level: string, message: string) => io.stderr.write(`subagents: ${level}: ${terminalSafe(message)}\n`);
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
