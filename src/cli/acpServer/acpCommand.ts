import { stopSandbox } from '../../core/access/sandbox/commandLauncher';
import type { Command } from '../cliArgs';
import { EXIT } from '../cliError';
import { stderrLogger } from '../cliIo';
import type { CliIo } from '../cliIo';
import { acpAgent } from './acpAgent';

type AcpCommand = Extract<Command, { name: 'acp' }>;

/**
 * `subagents acp`: our supervisor served as an ACP agent on stdin and stdout, for Zed, JetBrains
 * or any ACP client, until the client closes stdin (or the process gets SIGTERM or Ctrl+C).
 * stdout carries JSON-RPC only; warnings go to stderr, where clients keep an agent's log.
 */
export async function acpCommand(cmd: AcpCommand, io: CliIo): Promise<number> {
  const logger = stderrLogger(io);
  const options = {
    ...(cmd.model === undefined ? {} : { model: cmd.model }),
    ...(cmd.agent === undefined ? {} : { agent: cmd.agent }),
    ...(cmd.maxDepth === undefined ? {} : { maxDepth: cmd.maxDepth }),
    trust: cmd.trust,
    io,
    logger,
  };
  // The SDK's agent side is its own lazy bundle (acpAgent.js): `subagents run` never loads it.
  const { serveAcpOverStdio } = await import('./agentTransport');
  let server: ReturnType<typeof acpAgent> | undefined;
  const serving = serveAcpOverStdio((client) => (server = acpAgent(options, client)).handlers, { input: io.stdin, output: io.stdout });
  const stop = () => serving.close();
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  try {
    await serving.closed;
  } finally {
    process.off('SIGTERM', stop);
    process.off('SIGINT', stop);
    await server?.closeAll();
    await stopSandbox(logger);
  }
  return EXIT.ok;
}
