import { jsonSchema } from '@ai-sdk/provider-utils';
import type { JSONSchema7 } from 'ai';
import { errorText } from '../../../shared/errorText';
import type { ApprovalGate } from '../approvalGate';
import type { AnyToolSpec } from '../toolSpec';
import type { McpHub, LiveServer } from './mcpHub';
import { mcpResultForModel } from './mcpResult';
import { mcpToolName } from '../../config/mcp/mcpToolName';
import type { ListedTool } from './mcpTypes';
import type { LauncherSettings } from '../../access/sandbox/commandLauncher';

/** Server-written descriptions are cut here: they go into every model call. */
const MAX_DESCRIPTION = 1500;

export interface McpToolDeps {
  hub: McpHub;
  gate: ApprovalGate;
  settings: LauncherSettings;
}

/**
 * The tools of a started server as engine tools: named `mcp__<server>__<tool>`, with the server's
 * JSON schema (the server checks its own input). `readOnlyHint: true` makes a `read` tool;
 * anything else may change things, so it is `write` + `exec`: it asks in ask and autoEdit, and an
 * untrusted workspace bars it. A `tools` list in the declaration (Copilot's) keeps only those.
 */
export function mcpToolSpecs(live: LiveServer, deps: McpToolDeps): AnyToolSpec[] {
  const only = live.decl.config.tools;
  const listed = only && !only.includes('*') ? live.connection.tools.filter((t) => only.includes(t.name)) : live.connection.tools;
  return listed.map((tool) => toolSpec(live, tool, deps));
}

function toolSpec(live: LiveServer, tool: ListedTool, deps: McpToolDeps): AnyToolSpec {
  const name = mcpToolName(live.decl.name, tool.name);
  const readOnly = tool.annotations?.readOnlyHint === true;
  const said = (tool.description ?? tool.title ?? tool.annotations?.title ?? '').trim();
  const description = `${said.length > MAX_DESCRIPTION ? `${said.slice(0, MAX_DESCRIPTION)}…` : said}${said ? ' ' : ''}(Tool "${tool.name}" of the MCP server "${live.decl.name}".)`;
  return {
    name,
    description,
    capabilities: readOnly ? ['read'] : ['write', 'exec'],
    inputSchema: jsonSchema<unknown>(objectSchema(tool.inputSchema)),
    async execute(input, context) {
      if (!readOnly) {
        const allowed = await deps.gate.check(name, { kind: 'external', reason: approvalReason(live, tool) }, input, context);
        if (!allowed.ok) return { error: allowed.error };
      }
      try {
        const result = await deps.hub.call(live, tool.name, input ?? {}, context.signal, deps.settings);
        return mcpResultForModel(name, result);
      } catch (error) {
        if (context.signal.aborted) return { error: `Cancelled: the call to ${name} was stopped, and the server was told.` };
        return { error: `${name} failed: ${errorText(error)}` };
      }
    },
  };
}

function approvalReason(live: LiveServer, tool: ListedTool): string {
  const what = `Calls "${tool.name}" of the MCP server "${live.decl.name}", which does not say it only reads`;
  return tool.annotations?.destructiveHint === true
    ? `${what}; the server marks it destructive (it may delete or overwrite data).`
    : `${what}.`;
}

/** Providers want an object schema at the top; a server that lists none takes no input. */
function objectSchema(schema: Record<string, unknown> | undefined): JSONSchema7 {
  if (!schema || schema.type !== 'object') return { type: 'object', properties: {} };
  return { ...(schema as JSONSchema7), properties: (schema.properties as JSONSchema7['properties']) ?? {} };
}
