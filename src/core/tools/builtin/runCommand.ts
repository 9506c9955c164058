import { z } from 'zod';
import { lazySchema } from '../../../shared/lazySchema';
import type { CommandResult } from '../../ports';
import type { PreparedCommand } from '../../access/sandbox/commandLauncher';
import { isSandboxSetupFailure } from '../../access/sandbox/sandboxSetupFailure';
import { defineTool, type AnyToolSpec } from '../toolSpec';
import type { WorkspaceToolDeps } from './toolDeps';
import { errorText } from '../../../shared/errorText';

export const DEFAULT_COMMAND_TIMEOUT_MS = 120_000;
const MAX_COMMAND_TIMEOUT_MS = 30 * 60_000;
export const MAX_COMMAND_OUTPUT = 30_000;

const inputSchema = lazySchema(() =>
  z.object({
    command: z.string().min(1).max(10_000).describe('A bash command line.'),
    timeoutMs: z.number().int().min(1).max(MAX_COMMAND_TIMEOUT_MS).optional().describe(`Default ${DEFAULT_COMMAND_TIMEOUT_MS}.`),
  }),
);

/** The result a model reads: exit code, output, and a note for anything unusual. */
export function commandOutcome(result: CommandResult, timeoutMs: number): Record<string, unknown> {
  const notes: string[] = [];
  if (result.cutChars > 0) notes.push(`${result.cutChars} characters of output were cut from the middle.`);
  if (result.timedOut) {
    return {
      error: `Timed out after ${timeoutMs} ms; the command and every process it started were killed.`,
      output: result.output,
      ...(notes.length ? { note: notes.join(' ') } : {}),
    };
  }
  if (result.cancelled) return { error: 'Cancelled; the command and every process it started were killed.', output: result.output };
  return { exitCode: result.exitCode, output: result.output, ...(notes.length ? { note: notes.join(' ') } : {}) };
}

export function runCommandTool({ workspace, gate, agent, commands, files }: WorkspaceToolDeps): AnyToolSpec {
  return defineTool<z.infer<typeof inputSchema>>({
    name: 'run_command',
    description:
      'Run a bash command in the workspace root and wait for it (no stdin; servers and watchers are killed at the timeout). ' +
      'Sandboxed: only the workspace is writable, the network only to allowed hosts. Returns {exitCode, output}.',
    capabilities: ['exec'],
    inputSchema,
    async execute(input, context) {
      const sandbox = await commands.state();
      if (sandbox.refusal) return { error: sandbox.refusal };
      const allowed = await gate.check(
        'run_command',
        { kind: 'command', command: input.command, sandboxed: sandbox.sandboxed },
        input,
        context,
      );
      if (!allowed.ok) return { error: allowed.error };
      context.signal.throwIfAborted();
      const timeoutMs = input.timeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS;
      let prepared: PreparedCommand | undefined;
      try {
        // A command the user did not see runs with git's launchers (hooks, fsmonitor) off.
        const runOnce = async () => {
          prepared = await commands.prepare(input.command, { sandboxed: sandbox.sandboxed, hardenGit: !allowed.asked });
          const launch = prepared.launch;
          // The files it changes are found by comparing the workspace before and after (src/core/changes/attribution/).
          return files.command(context.toolCallId, () =>
            workspace.runCommand({
              command: input.command,
              launch,
              cwd: workspace.root,
              timeoutMs,
              signal: context.signal,
              maxOutputChars: MAX_COMMAND_OUTPUT,
              label: agent,
            }),
          );
        };
        let result = await runOnce();
        // The sandbox did not set up (see sandboxSetupFailure.ts): nothing ran, so once more.
        if (sandbox.sandboxed && result.exitCode === 1 && isSandboxSetupFailure(result.output) && !context.signal.aborted) {
          await prepared?.release();
          result = await runOnce();
        }
        return commandOutcome(result, timeoutMs);
      } catch (error) {
        return { error: `The command could not be started: ${errorText(error)}` };
      } finally {
        await prepared?.release();
      }
    },
  });
}
