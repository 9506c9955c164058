import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseJsonc } from '../../platform/jsonc/parseJsonc';
import type { Profile } from '../profiles/profile';
import { mcpServerNameSchema, readMcpServerConfig, type McpServerConfig } from './mcpServerConfig';
import { mcpServerKey } from './mcpServerKey';

/**
 * Every MCP server this window or CLI process may start, from every place people declare them,
 * with who declared it: a server of the user's own settings starts unasked, one the workspace
 * declares (its settings, `.vscode/mcp.json`, `.mcp.json`, an agent file) only once the user
 * approved it (mcpServerApproval.ts). An untrusted workspace declares none.
 */

/** `user`: starts unasked; `workspace`: asks once (and again when it changes). */
export type McpOrigin = 'user' | 'workspace';

export interface McpServerDecl {
  name: string;
  config: McpServerConfig;
  origin: McpOrigin;
  /** Where it was declared, for messages: "user settings", ".mcp.json", ".claude/agents/x.md". */
  source: string;
  /** Claude Code's `${NAME}` variables are read too (.mcp.json, agent files). */
  bareNames: boolean;
  /** Started only for runs of this profile (a profile's own `mcpServers`). */
  profile?: string;
}

export interface McpDeclProblem {
  server: string;
  source: string;
  message: string;
  /** Two declarations of one name: the message says what to do. */
  conflict?: boolean;
}

export interface McpDeclarations {
  /**
   * One per name. The same declaration written in two places is one server (the later place
   * kept); two different ones under one name are a conflict (a problem), and neither is here.
   */
  servers: McpServerDecl[];
  problems: McpDeclProblem[];
}

export interface McpSources {
  root: string | undefined;
  trusted: boolean;
  /** `subagents.mcpServers` of the user's settings (the extension; the CLI has none). */
  user?: unknown;
  /** `subagents.mcpServers` of the workspace's settings, lowest first, with where each came from. */
  workspace?: readonly { source: string; value: unknown }[];
  readText?: (path: string) => string | undefined;
}

/** The files other tools keep their servers in: Claude Code's, then VS Code's (which wins). */
export const MCP_FILES = [
  { path: '.mcp.json', key: 'mcpServers', bareNames: true },
  { path: '.vscode/mcp.json', key: 'servers', bareNames: false },
] as const;

/** An MCP file larger than this is not read. */
const MAX_MCP_FILE_BYTES = 1024 * 1024;

/** Why the file is not read: a repository's `.mcp.json` may be a link to a pipe or `/dev/zero` (a read without end), or huge. */
function notReadable(path: string): string | undefined {
  let info;
  try {
    info = statSync(path);
  } catch {
    return undefined;
  }
  if (!info.isFile()) return 'is not a regular file (a pipe, a device or a folder)';
  if (info.size > MAX_MCP_FILE_BYTES)
    return `is ${Math.round(info.size / 1024)} KB, more than the ${MAX_MCP_FILE_BYTES / 1024} KB an MCP file may have`;
  return undefined;
}

const readIfThere = (path: string): string | undefined => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
};

/**
 * Read in this order: user settings, .mcp.json, .vscode/mcp.json, workspace settings. A name
 * declared differently in two of them is a conflict: approving "github" approves one declaration,
 * and a second one under the same name (another file, another folder's settings) must not ride
 * on it, nor silently replace the user's own.
 */
export function declareMcpServers(sources: McpSources): McpDeclarations {
  const found = new Map<string, McpServerDecl>();
  const conflicts = new Map<string, string[]>();
  const problems: McpDeclProblem[] = [];
  const take = (record: unknown, origin: McpOrigin, source: string, bareNames: boolean) => {
    for (const decl of readServerRecord(record, { origin, source, bareNames }, problems)) {
      const earlier = found.get(decl.name);
      const clash = conflicts.get(decl.name);
      if (clash) clash.push(decl.source);
      else if (earlier && mcpServerKey(earlier.config) !== mcpServerKey(decl.config)) {
        conflicts.set(decl.name, [earlier.source, decl.source]);
        found.delete(decl.name);
      } else found.set(decl.name, earlier?.origin === 'workspace' ? { ...decl, origin: 'workspace' } : decl);
    }
  };
  if (sources.user !== undefined) take(sources.user, 'user', 'user settings', false);
  if (sources.trusted && sources.root) {
    const read = sources.readText ?? readIfThere;
    for (const file of MCP_FILES) {
      const refused = sources.readText ? undefined : notReadable(join(sources.root, file.path));
      if (refused) {
        problems.push({ server: '', source: file.path, message: `${refused}, so none of its servers is used` });
        continue;
      }
      const text = read(join(sources.root, file.path));
      if (text === undefined) continue;
      const parsed = parseJsonc(text, { jsonc: true });
      if (!parsed.ok) {
        problems.push({
          server: '',
          source: file.path,
          message: `is not valid JSON at line ${parsed.error.line}, column ${parsed.error.column} (${parsed.error.message}), so none of its servers is used`,
        });
        continue;
      }
      const value = parsed.value as Record<string, unknown> | null;
      take(typeof value === 'object' && value !== null ? value[file.key] : undefined, 'workspace', file.path, file.bareNames);
    }
    for (const layer of sources.workspace ?? []) if (layer.value !== undefined) take(layer.value, 'workspace', layer.source, false);
  }
  for (const [name, places] of conflicts) problems.push(conflictProblem(name, places));
  return { servers: [...found.values()], problems };
}

/** Two or more different declarations of one name: where each is, and what to do. */
export function conflictProblem(name: string, places: readonly string[]): McpDeclProblem {
  const [first, ...others] = [...new Set(places)];
  return {
    server: name,
    source: first ?? '',
    message: `is declared differently in ${others.join(' and ') || 'another place'} too, so neither is started (an approval names one declaration, and these cannot be told apart by name). Remove or rename all but one of them`,
    conflict: true,
  };
}

/**
 * A profile's own servers, started only for its runs; the user's own profiles start theirs unasked.
 * Agent files read Claude Code's `${NAME}` variables, as the tools they come from do.
 */
export function profileMcpServers(profile: Profile): McpServerDecl[] {
  if (!profile.mcpServers) return [];
  const origin: McpOrigin = isUsersOwn(profile.source) ? 'user' : 'workspace';
  return readServerRecord(
    profile.mcpServers,
    { origin, source: profile.source, bareNames: profile.origin !== undefined, profile: profile.name },
    [],
  );
}

/** Built-in profiles, the user's settings and the user's agent folders (~/.claude/agents, ~/.copilot/agents). */
function isUsersOwn(source: string): boolean {
  return source === 'built-in' || source === 'user settings' || source.startsWith('~/');
}

function readServerRecord(record: unknown, base: Omit<McpServerDecl, 'name' | 'config'>, problems: McpDeclProblem[]): McpServerDecl[] {
  if (record === undefined || record === null) return [];
  if (typeof record !== 'object' || Array.isArray(record)) {
    problems.push({
      server: '',
      source: base.source,
      message: 'must map server names to their declarations, as in { "github": { "command": "…" } }',
    });
    return [];
  }
  const out: McpServerDecl[] = [];
  for (const [name, raw] of Object.entries(record)) {
    const named = mcpServerNameSchema.safeParse(name);
    if (!named.success) {
      problems.push({ server: name, source: base.source, message: `has a name that ${named.error.issues[0]?.message ?? 'is not valid'}` });
      continue;
    }
    const read = readMcpServerConfig(raw);
    if (!read.ok) {
      problems.push({ server: name, source: base.source, message: read.message });
      continue;
    }
    out.push({ ...base, name, config: read.config });
  }
  return out;
}

/** A declaration problem as one sentence, for the run's node, the log and the CLI. */
export function describeMcpDeclProblem(p: McpDeclProblem): string {
  const what = p.server ? `The MCP server "${p.server}" in ${p.source}` : p.source;
  if (p.conflict) return `${what} ${p.message}.`;
  return `${what} ${p.message}; it is not started. Fix the declaration to use it.`;
}
