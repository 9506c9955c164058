import { randomUUID } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import type { Logger } from '../../core/ports';
import type { TrustFlags } from '../cliArgs';
import { UsageError } from '../cliError';
import type { CliIo } from '../cliIo';
import { cliEngine } from '../cliEngine';
import { defaultStorageOf } from '../defaultStorage';
import { acpApprover } from './acpApprover';
import { AcpRefusal } from './acpRefusal';
import { AcpSession } from './acpSession';
import type { AcpAgentHandlers, AcpClientCalls } from './agentTransport';

/** What `subagents acp` was started with: the same flags as `run`, for every session. */
export interface AcpServerOptions {
  model?: string;
  agent?: string;
  maxDepth?: number;
  trust: TrustFlags;
  io: CliIo;
  logger: Logger;
}

/** The folder a session works in: ACP's cwd, which must be an absolute path to a folder that exists. */
async function checkCwd(cwd: string): Promise<void> {
  if (!isAbsolute(cwd))
    throw new AcpRefusal(-32602, `session/new: cwd "${cwd}" is not an absolute path. Send the workspace folder as an absolute path.`);
  const info = await stat(cwd).catch(() => undefined);
  if (!info?.isDirectory())
    throw new AcpRefusal(
      -32602,
      `session/new: cwd "${cwd}" is not an existing folder. Send the workspace folder the agent should work in.`,
    );
}

/**
 * Our supervisor as an ACP agent: `initialize` (no session/load, no client MCP servers, no
 * images), `session/new` (a workspace; its engine is set up as `subagents run` sets one up, under
 * the same --allow-* flags), `session/prompt` (a turn on the session's thread, streamed as
 * session/update) and `session/cancel`. Files are always read and written by our own file layer
 * (confinement, protected files, attribution), never through the client's fs methods.
 */
export function acpAgent(options: AcpServerOptions, client: AcpClientCalls) {
  const sessions = new Map<string, AcpSession>();
  const handlers: AcpAgentHandlers = {
    initialize: async () => ({
      agentInfo: { name: 'subagents', title: 'Subagents', version: '1' },
      agentCapabilities: {
        loadSession: false,
        promptCapabilities: { image: false, audio: false, embeddedContext: true },
        mcpCapabilities: { http: false, sse: false },
      },
      authMethods: [],
    }),
    async newSession(params) {
      await checkCwd(params.cwd);
      if (params.mcpServers.length > 0)
        options.logger.warn(
          `The client offered ${params.mcpServers.length} MCP server(s) for this session; they are not used. Declare MCP servers in the workspace (.vscode/mcp.json, .mcp.json) and start "subagents acp" with --allow-mcp NAME.`,
        );
      const id = `acp_${randomUUID()}`;
      let cli;
      try {
        cli = await cliEngine({
          workspace: params.cwd,
          storage: defaultStorageOf(params.cwd),
          trust: options.trust,
          ...(options.model === undefined ? {} : { model: options.model }),
          ...(options.maxDepth === undefined ? {} : { maxDepth: options.maxDepth }),
          io: options.io,
          logger: options.logger,
          approver: acpApprover(id, params.cwd, client.requestPermission),
        });
      } catch (error) {
        // Configuration the user must fix (no model, a broken script, a bad setting): said as the error.
        if (error instanceof UsageError) throw new AcpRefusal(-32602, `session/new: ${error.message}`);
        throw error;
      }
      sessions.set(id, new AcpSession(id, params.cwd, cli, client.update));
      return { sessionId: id };
    },
    async prompt(params) {
      return sessionOf(params.sessionId).prompt(params.prompt, options.agent);
    },
    cancel(params) {
      sessions.get(params.sessionId)?.cancel();
    },
  };

  function sessionOf(id: string): AcpSession {
    const session = sessions.get(id);
    if (!session) throw new AcpRefusal(-32002, `There is no session "${id}" here: start one with session/new.`);
    return session;
  }

  return {
    handlers,
    /** Ends every session: its runs stopped, its threads stored, its MCP servers stopped. */
    async closeAll(): Promise<void> {
      await Promise.all([...sessions.values()].map((s) => s.close()));
      sessions.clear();
    },
  };
}
