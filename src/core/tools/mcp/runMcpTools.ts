import { randomUUID } from 'node:crypto';
import { errorText } from '../../../shared/errorText';
import type { Profile } from '../../config/profiles/profile';
import { barsServer, listsServer } from '../../config/profiles/toolPatterns';
import type { RunToolSource, RunToolSourceRequest } from '../runToolSource';
import type { AnyToolSpec } from '../toolSpec';
import { conflictProblem, describeMcpDeclProblem, profileMcpServers, type McpServerDecl } from '../../config/mcp/mcpDeclarations';
import { mcpServerKey } from '../../config/mcp/mcpServerKey';
import type { McpHub } from './mcpHub';
import { mcpToolSpecs } from './mcpToolSpecs';

export interface McpRunRequest extends RunToolSourceRequest {
  hub: McpHub;
}

/** The window's or CLI process's MCP servers as one of the engine's tool sources. */
export function mcpToolSource(hub: McpHub): RunToolSource {
  return {
    toolsForRun: (request) => mcpToolsForRun({ ...request, hub }),
    describeFor: (profile) => {
      const names = mcpServersForRun(hub, profile).map((d) => d.name);
      return names.length ? `MCP servers (${names.join(', ')})` : undefined;
    },
  };
}

/** The pseudo-tool under which a workspace server's approval shows on the run's node. */
export const MCP_SERVER_APPROVAL = 'mcp_server';

/**
 * The MCP tools of one run: the declared servers its profile can use (its `tools` names one of
 * theirs, or it has no `tools` list; `disallowedTools` with `mcp__<server>__*` takes a server out)
 * and the profile's own servers, each started if it is not running (a workspace's server only once
 * the user approved it). A server that cannot start is a warning on the run's node; the run goes on
 * without its tools.
 */
export async function mcpToolsForRun(request: McpRunRequest): Promise<AnyToolSpec[]> {
  const { hub, emit } = request;
  const { servers, conflicts } = serversOfRun(hub, request.profile);
  for (const message of hub.unreported([...hub.declarations().problems, ...conflicts].map(describeMcpDeclProblem)))
    emit({ kind: 'warning', code: 'mcp', message });
  const tools = await Promise.all(servers.map((decl) => serverTools(request, decl)));
  return tools.flat();
}

/** The servers a run of `profile` would use: the declared ones its lists allow, and its own. */
export function mcpServersForRun(hub: McpHub, profile: Profile): McpServerDecl[] {
  return serversOfRun(hub, profile).servers;
}

/**
 * A profile's own server under the name of a declared one, declared differently, is a conflict:
 * neither starts for this profile's runs (approving one must not approve the other).
 */
function serversOfRun(hub: McpHub, profile: Profile): { servers: McpServerDecl[]; conflicts: ReturnType<typeof conflictProblem>[] } {
  const byName = new Map<string, McpServerDecl>();
  const conflicts: ReturnType<typeof conflictProblem>[] = [];
  const clashing = new Set<string>();
  for (const decl of hub.declarations().servers) byName.set(decl.name, decl);
  for (const own of profileMcpServers(profile)) {
    const declared = byName.get(own.name);
    if (declared && !clashing.has(own.name) && mcpServerKey(declared.config) !== mcpServerKey(own.config)) {
      conflicts.push(conflictProblem(own.name, [declared.source, own.source]));
      clashing.add(own.name);
    }
    if (!clashing.has(own.name)) byName.set(own.name, own);
  }
  for (const name of clashing) byName.delete(name);
  return { servers: [...byName.values()].filter((d) => wanted(profile, d.name)), conflicts };
}

function wanted(profile: Profile, server: string): boolean {
  if (profile.disallowedTools && barsServer(profile.disallowedTools, server)) return false;
  return profile.tools === undefined || listsServer(profile.tools, server);
}

async function serverTools(request: McpRunRequest, decl: McpServerDecl): Promise<AnyToolSpec[]> {
  const { hub, emit } = request;
  if (request.run.signal.aborted) return [];
  if (!hub.preApproved(decl)) {
    const approved = await hub.approval(decl, () => askToStart(request, decl));
    if (!approved) {
      emit({
        kind: 'warning',
        code: 'mcp',
        message: `The MCP server "${decl.name}" (${decl.source}) was not approved, so it is not started and this run goes on without its tools. It is asked again in a new window (in the CLI, pass --allow-mcp ${decl.name}).`,
      });
      return [];
    }
  }
  try {
    const live = await hub.server(decl, request.settings, (message) => emit({ kind: 'warning', code: 'sandbox', message }));
    return mcpToolSpecs(live, { hub, gate: request.gate, settings: request.settings });
  } catch (error) {
    emit({
      kind: 'warning',
      code: 'mcp',
      message: `MCP server \`${decl.name}\` could not start: ${errorText(error)}. This run goes on without its tools.`,
    });
    return [];
  }
}

/** Asks on the run's node, through the same approval flow as a tool call (no panel UI of its own). */
async function askToStart(request: McpRunRequest, decl: McpServerDecl): Promise<boolean | undefined> {
  const toolCallId = `mcp_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  const input = approvalInput(decl);
  request.emit({ kind: 'tool.started', toolCallId, tool: MCP_SERVER_APPROVAL, input });
  const what =
    decl.config.transport === 'stdio'
      ? `runs \`${[decl.config.command, ...decl.config.args].join(' ')}\``
      : `connects to ${decl.config.url}`;
  const reason = `${decl.source} declares the MCP server "${decl.name}", which ${what} and gives agents its tools. Start it? The answer is remembered for this workspace until the declaration changes.`;
  const context = { runId: request.run.runId, threadId: request.run.threadId, toolCallId, signal: request.run.signal };
  const result = await request.gate.check(MCP_SERVER_APPROVAL, { kind: 'workspaceCode', reason }, input, context);
  request.emit({
    kind: 'tool.finished',
    toolCallId,
    tool: MCP_SERVER_APPROVAL,
    output: result.ok ? `approved: the MCP server "${decl.name}" starts` : { error: result.error },
    isError: !result.ok,
  });
  return request.run.signal.aborted ? undefined : result.ok;
}

/** What the user sees and approves: the command, arguments, folder and environment as written, or the URL. */
function approvalInput(decl: McpServerDecl): Record<string, unknown> {
  const c = decl.config;
  if (c.transport !== 'stdio')
    return {
      server: decl.name,
      source: decl.source,
      url: c.url,
      ...(Object.keys(c.headers).length ? { headers: Object.keys(c.headers) } : {}),
    };
  return {
    server: decl.name,
    source: decl.source,
    command: c.command,
    args: c.args,
    ...(c.cwd ? { cwd: c.cwd } : {}),
    ...(Object.keys(c.env).length ? { env: c.env } : {}),
  };
}
