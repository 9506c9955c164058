import { z } from 'zod';
import { lazySchema } from '../../../shared/lazySchema';

/**
 * An MCP server as people declare it: `subagents.mcpServers`, a profile's `mcpServers` (Claude
 * Code's field) or `mcp-servers` (Copilot's), `.vscode/mcp.json` (VS Code's `servers`) and
 * `.mcp.json` (Claude Code's `mcpServers`). One loose shape reads them all: a `command` is a
 * server we start (stdio), a `url` one we connect to (Streamable HTTP, or SSE when `type` says so
 * or the server only speaks that). Keys we do not use (VS Code's `envFile`, `dev`) are ignored.
 */

/** Server names become part of tool names (`mcp__<server>__<tool>`): no `__`, nothing a provider refuses. */
export const mcpServerNameSchema = z
  .string()
  .regex(
    /^[A-Za-z0-9](?:[A-Za-z0-9.-]|_(?!_))*$/,
    'must be letters, digits, dots, dashes and single underscores, starting with a letter or digit',
  )
  .max(32, 'must be at most 32 characters (it is part of each tool name, which providers cap at 64)');

const text = lazySchema(() => z.union([z.string(), z.number(), z.boolean()]).transform(String));
/** Copilot's `tools: ["*"]` or a list of the server's own tool names: which of its tools agents get. */
const toolFilter = lazySchema(() => z.array(z.string().min(1)).optional());

const stdioSchema = lazySchema(() =>
  z.looseObject({
    type: z.enum(['stdio', 'local']).optional(),
    command: z.string().trim().min(1, 'must name the program that starts the server'),
    args: z.array(text).default([]),
    env: z.record(z.string(), text).default({}),
    cwd: z.string().trim().min(1).optional(),
    tools: toolFilter,
  }),
);

const remoteSchema = lazySchema(() =>
  z.looseObject({
    type: z.enum(['http', 'sse', 'streamable-http', 'streamableHttp']).optional(),
    url: z
      .string()
      .trim()
      .refine((u) => /^https?:\/\/[^\s/]+/i.test(u), 'must be an http:// or https:// address'),
    headers: z.record(z.string(), text).default({}),
    tools: toolFilter,
  }),
);

export interface StdioServerConfig {
  transport: 'stdio';
  command: string;
  args: string[];
  /** As written: `${env:NAME}` is expanded when the server starts, so the value never sits in settings. */
  env: Record<string, string>;
  cwd?: string;
  tools?: string[];
}

export interface RemoteServerConfig {
  /** `http`: Streamable HTTP, falling back to SSE when the server answers as an SSE-only one. */
  transport: 'http' | 'sse';
  url: string;
  headers: Record<string, string>;
  tools?: string[];
}

export type McpServerConfig = StdioServerConfig | RemoteServerConfig;

export type McpServerCheck = { ok: true; config: McpServerConfig } | { ok: false; message: string };

/** Reads one server's declaration; the message says what is wrong in words for the user. */
export function readMcpServerConfig(raw: unknown): McpServerCheck {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    return { ok: false, message: 'must be an object with a "command" (a server to start) or a "url" (a server to connect to)' };
  const hasCommand = 'command' in raw;
  const hasUrl = 'url' in raw;
  if (hasCommand === hasUrl) {
    return {
      ok: false,
      message: hasCommand
        ? 'has both "command" and "url": give one (a server to start, or one to connect to)'
        : 'needs a "command" (a server to start) or a "url" (a server to connect to)',
    };
  }
  if (hasCommand) {
    const read = stdioSchema.safeParse(raw);
    if (!read.success) return { ok: false, message: problemText(read.error) };
    const { command, args, env, cwd, tools } = read.data;
    return {
      ok: true,
      config: { transport: 'stdio', command, args, env, ...(cwd === undefined ? {} : { cwd }), ...(tools ? { tools } : {}) },
    };
  }
  const read = remoteSchema.safeParse(raw);
  if (!read.success) return { ok: false, message: problemText(read.error) };
  const { url, headers, tools, type } = read.data;
  return { ok: true, config: { transport: type === 'sse' ? 'sse' : 'http', url, headers, ...(tools ? { tools } : {}) } };
}

/** The same check as a zod schema, for profiles' `mcpServers` (validated with the rest of the profile). */
export const mcpServersFieldSchema = z.record(mcpServerNameSchema, z.unknown()).superRefine((servers, ctx) => {
  for (const [name, raw] of Object.entries(servers)) {
    const read = readMcpServerConfig(raw);
    if (!read.ok) ctx.addIssue({ code: 'custom', path: [name], message: read.message });
  }
});

function problemText(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.length ? `"${i.path.join('.')}" ` : ''}${i.message}`).join('; ');
}
