import { ModelSpecError } from '../core/models/modelResolver';
import { ScriptError } from '../core/models/scriptSchema';
import { USAGE, parseCommandLine } from './cliArgs';
import { EXIT, UsageError } from './cliError';
import { Redactor } from '../core/access/secrets/redactor';
import { takeKeysOutOfEnvironment, withTakenKeys } from '../core/access/secrets/processKeys';
import { processIo, redactingIo } from './cliIo';
import type { CliIo } from './cliIo';
import { profilesCommand } from './profilesCommand';
import { runChangesCommand } from './runChangesCommand';
import { runCommand } from './runCommand';
import { acpCommand } from './acpServer/acpCommand';
import { terminalSafe } from './terminalText';
import { threadsCommand } from './threadsCommand';

/** Runs one command line; returns the exit code. */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    const cmd = parseCommandLine(argv, process.cwd());
    switch (cmd.name) {
      case 'help':
        io.stdout.write(`${USAGE}\n`);
        return EXIT.ok;
      case 'run':
        return await runCommand(cmd, io);
      case 'acp':
        return await acpCommand(cmd, io);
      case 'profiles list':
      case 'profiles validate':
        return await profilesCommand(cmd, io);
      case 'threads revert':
      case 'threads apply':
      case 'threads discard':
        return await runChangesCommand(cmd, io);
      default:
        return await threadsCommand(cmd, io);
    }
  } catch (error) {
    if (error instanceof UsageError || error instanceof ScriptError || error instanceof ModelSpecError) {
      io.stderr.write(`subagents: ${terminalSafe(error.message)}\n`);
      return EXIT.usage;
    }
    io.stderr.write(
      `subagents: unexpected error: ${terminalSafe(error instanceof Error ? (error.stack ?? error.message) : String(error))}\n`,
    );
    return EXIT.runFailed;
  }
}

/**
 * The command line of this process, run (dist/cliMain.js; dist/cli.js loads it, see launcher.ts).
 * Resolves with the exit code; never rejects.
 */
export function runCli(): Promise<number> {
  // The keys leave the environment before anything else runs (see processKeys.ts).
  const notCleared = takeKeysOutOfEnvironment();
  if (notCleared) process.stderr.write(`subagents: warning: ${notCleared}.\n`);
  // The keys a CLI run uses come from its environment: nothing it prints may show them.
  return main(process.argv.slice(2), redactingIo(processIo, Redactor.fromEnvironment(withTakenKeys()))).catch((error: unknown) => {
    process.stderr.write(`subagents: ${String(error)}\n`);
    return EXIT.runFailed;
  });
}
