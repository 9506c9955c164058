import { stopSandbox } from '../core/access/sandbox/commandLauncher';
import { stat } from 'node:fs/promises';
import { EngineRequestError } from '../core/engine/engine';
import { SUPERVISOR } from '../core/config/settings/engineSettings';
import { isThreadId } from '../core/storage/threads/threadId';
import type { Command } from './cliArgs';
import { EXIT, UsageError } from './cliError';
import { readAll, stderrLogger } from './cliIo';
import type { CliIo } from './cliIo';
import { cliEngine } from './cliEngine';
import { findProfile } from '../core/config/profiles/findProfile';
import { eventPrinter } from './eventPrinter';
import { terminalApprover } from './terminalApprover';
import { terminalPrompt } from './terminalPrompt';

type RunCommand = Extract<Command, { name: 'run' }>;

/** The folder a command works in must exist before anything reads it. */
export async function checkWorkspace(dir: string): Promise<void> {
  const info = await stat(dir).catch(() => undefined);
  if (!info?.isDirectory())
    throw new UsageError(`The workspace "${dir}" is not a folder. Pass --workspace DIR, or run from the project folder.`);
}

/** `subagents run`: one request, run until its thread is quiet. */
export async function runCommand(cmd: RunCommand, io: CliIo): Promise<number> {
  await checkWorkspace(cmd.workspace);
  const logger = stderrLogger(io);
  let prompt = '';
  const terminal = terminalPrompt({ input: io.stdin, output: io.stderr });
  const { engine, store, snapshots, close } = await cliEngine({
    workspace: cmd.workspace,
    storage: cmd.storage,
    trust: cmd.trust,
    ...(cmd.model === undefined ? {} : { model: cmd.model }),
    ...(cmd.maxDepth === undefined ? {} : { maxDepth: cmd.maxDepth }),
    io,
    logger,
    approver: terminalApprover({ prompt: terminal, output: io.stderr }),
    // ask_user asks on the terminal.
    askUser: (question, signal) => terminal.ask(`\n${question}\n> `, signal),
    async beforeStart(profiles) {
      if (cmd.agent !== undefined && cmd.agent !== SUPERVISOR && !findProfile(profiles.profiles, cmd.agent)) {
        throw new UsageError(
          `There is no enabled agent "${cmd.agent}". Available: ${[...profiles.profiles.keys()].join(', ') || '(none)'}.`,
        );
      }
      prompt = cmd.prompt === '-' ? (await readAll(io.stdin)).trim() : cmd.prompt;
      if (!prompt) throw new UsageError('The prompt read from stdin is empty: say what to do.');
    },
  });
  const printer = eventPrinter(io, cmd.json);
  engine.onEvent(printer.print);

  let interrupted = false;
  const onSigint = () => {
    if (interrupted) process.exit(EXIT.interrupted); // a second Ctrl+C: stop waiting
    interrupted = true;
    io.stderr.write('\nsubagents: cancelling every open run (Ctrl+C again to quit at once)…\n');
    engine.cancelAll();
  };
  process.on('SIGINT', onSigint);
  try {
    if (cmd.thread !== undefined) {
      if (!isThreadId(cmd.thread)) throw new UsageError(`"${cmd.thread}" is not a thread id. See "subagents threads list".`);
      if (!(await store.get(cmd.thread)))
        throw new UsageError(`There is no thread "${cmd.thread}" in ${cmd.storage}. See "subagents threads list".`);
    }
    let sent;
    try {
      sent = await engine.send({
        prompt,
        ...(cmd.thread === undefined ? {} : { threadId: cmd.thread }),
        ...(cmd.agent === undefined ? {} : { agent: cmd.agent }),
      });
    } catch (error) {
      if (error instanceof EngineRequestError) throw new UsageError(error.message);
      throw error;
    }
    const finished = await sent.done;
    await engine.whenQuiet(sent.threadId);
    // subagents.threads.retention: the engine's pass after the turn would be cut short by the exit.
    await engine.pruneThreads();
    await store.closeAll();
    await snapshots.enforceCap();
    const last = printer.lastTopFinish(sent.threadId) ?? finished;
    printer.summary(sent.threadId, last);
    if (interrupted) return EXIT.interrupted;
    return last.status === 'ok' ? EXIT.ok : EXIT.runFailed;
  } finally {
    process.off('SIGINT', onSigint);
    await close();
    // Then the sandbox the MCP servers and the commands ran in: its proxy and the sockets it made in the temp folder.
    await stopSandbox(logger);
  }
}
