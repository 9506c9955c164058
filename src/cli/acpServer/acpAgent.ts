import { stat } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import type { Logger } from '../../core/ports';
import { newThreadId } from '../../core/storage/threads/newThreadId';
import { isThreadId } from '../../core/storage/threads/threadId';
import { Redactor } from '../../core/access/secrets/redactor';
import { withTakenKeys } from '../../core/access/secrets/processKeys';
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
    throw new AcpRefusal(-32602, `The session's cwd "${cwd}" is not an absolute path. Send the workspace folder as an absolute path.`);
  const info = await stat(cwd).catch(() => undefined);
  if (!info?.isDirectory())
    throw new AcpRefusal(
      -32602,
      `The session's cwd "${cwd}" is not an existing folder. Send the workspace folder the agent should work in.`,
    );
}

/**
 * Our supervisor as an ACP agent: `initialize` (no client MCP servers, no images), `session/new`
 * (a workspace; its engine is set up as `subagents run` sets one up, under the same --allow-*
 * flags), `session/load` (a session's stored thread, replayed), `session/prompt` (a turn on the
 * session's thread, streamed as session/update) and `session/cancel`. Files are always read and
 * written by our own file layer (confinement, protected files, attribution), never through the
 * client's fs methods: one layer to trust, the same in every host.
 */
export function acpAgent(options: AcpServerOptions, client: AcpClientCalls) {
  const sessions = new Map<string, AcpSession>();
  // The keys left process.env at start-up (processKeys.ts): what reaches the client outside the
  // engine's events (a permission request's words) is redacted with them.
  const redactor = Redactor.fromEnvironment(withTakenKeys());
  const handlers: AcpAgentHandlers = {
    initialize: async () => ({
      agentInfo: { name: 'subagents', title: 'Subagents', version: '1' },
      agentCapabilities: {
        loadSession: true,
        promptCapabilities: { image: false, audio: false, embeddedContext: true },
        mcpCapabilities: { http: false, sse: false },
      },
      authMethods: [],
    }),
    async newSession(params) {
      const id = newThreadId();
      const cli = await openEngine(id, params.cwd, params.mcpServers.length);
      sessions.set(id, new AcpSession(id, params.cwd, cli, client.update, false));
      return { sessionId: id };
    },
    async loadSession(params) {
      const id = params.sessionId;
      if (sessions.has(id)) throw new AcpRefusal(-32600, `The session "${id}" is open already: prompt it, or start a new one.`);
      const cli = await openEngine(id, params.cwd, params.mcpServers.length);
      const thread = isThreadId(id) ? await cli.store.get(id) : undefined;
      if (!thread || thread.meta.parentThreadId !== null) {
        await cli.close();
        throw new AcpRefusal(-32002, `There is no session "${id}" in ${params.cwd}: start one with session/new.`);
      }
      const session = new AcpSession(id, params.cwd, cli, client.update, true);
      sessions.set(id, session);
      await session.replay();
      return {};
    },
    async prompt(params) {
      return sessionOf(params.sessionId).prompt(params.prompt, options.agent);
    },
    cancel(params) {
      sessions.get(params.sessionId)?.cancel();
    },
  };

  /** The engine of one session, in its workspace, set up as `subagents run` sets one up. */
  async function openEngine(id: string, cwd: string, offeredMcpServers: number) {
    await checkCwd(cwd);
    if (offeredMcpServers > 0)
      options.logger.warn(
        `The client offered ${offeredMcpServers} MCP server(s) for this session; they are not used. Declare MCP servers in the workspace (.vscode/mcp.json, .mcp.json) and start "subagents acp" with --allow-mcp NAME.`,
      );
    try {
      return await cliEngine({
        workspace: cwd,
        storage: defaultStorageOf(cwd),
        trust: options.trust,
        ...(options.model === undefined ? {} : { model: options.model }),
        ...(options.maxDepth === undefined ? {} : { maxDepth: options.maxDepth }),
        io: options.io,
        logger: options.logger,
        approver: acpApprover(id, cwd, client.requestPermission, (text) => redactor.redactText(text)),
      });
    } catch (error) {
      // Configuration the user must fix (no model, a broken script, a bad setting): said as the error.
      if (error instanceof UsageError) throw new AcpRefusal(-32602, error.message);
      throw error;
    }
  }

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
