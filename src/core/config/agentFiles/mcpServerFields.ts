import { mcpServerNameSchema, readMcpServerConfig } from '../mcp/mcpServerConfig';
import type { FileCheck } from './fileCheck';
import type { FrontMatter } from './frontMatter';
import type { FrontMatterField } from './frontMatterField';

/** The fields that declare an agent's own MCP servers: Claude Code's and ours, and Copilot's. */
const MCP_FIELDS = ['mcpServers', 'mcp-servers'];

/**
 * The server definitions a file's `mcpServers` (Claude Code: a map, or a list of names and
 * one-entry maps) or `mcp-servers` (Copilot: a map) holds, as name → declaration. Names alone
 * refer to servers configured elsewhere (settings, .mcp.json, .vscode/mcp.json).
 */
function entriesOf(value: unknown): { inline: [string, unknown][]; named: string[] } {
  const inline: [string, unknown][] = [];
  const named: string[] = [];
  const take = (v: unknown) => {
    if (typeof v === 'string') named.push(v.trim());
    else if (typeof v === 'object' && v !== null && !Array.isArray(v)) inline.push(...Object.entries(v));
  };
  if (Array.isArray(value)) value.forEach(take);
  else take(value);
  return { inline, named };
}

/** The names of the servers a file declares itself: its tools may name theirs. */
export function ownMcpServerNames(frontMatter: FrontMatter): string[] {
  const field = frontMatter.fields.find((f) => MCP_FIELDS.includes(f.key));
  return field ? entriesOf(field.value).inline.map(([name]) => name) : [];
}

/**
 * Reads the field into the profile's `mcpServers`: each good inline declaration is kept, a bad one
 * is a warning at the field (left out); a name that no configuration declares is a note.
 */
export function readMcpServersField(
  check: FileCheck,
  field: FrontMatterField,
  input: Record<string, unknown>,
  configured: readonly string[],
): void {
  const { inline, named } = entriesOf(field.value);
  if (inline.length === 0 && named.length === 0) {
    check.add(
      'bad-value',
      'warning',
      field.key,
      `"${field.key}" must map server names to their declarations ({command, args, env} or {url, headers}), so it is ignored`,
      field.valueRange,
    );
    return;
  }
  const servers: Record<string, unknown> = {};
  for (const [name, raw] of inline) {
    const okName = mcpServerNameSchema.safeParse(name);
    const read = okName.success
      ? readMcpServerConfig(raw)
      : { ok: false as const, message: `has a name that ${okName.error.issues[0]?.message ?? 'is not valid'}` };
    if (read.ok) servers[name] = raw;
    else check.add('bad-value', 'warning', field.key, `the MCP server "${name}" ${read.message}, so it is left out`, field.valueRange);
  }
  for (const name of named) {
    if (!configured.includes(name))
      check.add(
        'tool-mcp',
        'information',
        field.key,
        `names the MCP server "${name}", which no configuration declares (subagents.mcpServers, .mcp.json, .vscode/mcp.json), so it is left out`,
        field.valueRange,
      );
  }
  if (Object.keys(servers).length > 0) {
    input['mcpServers'] = servers;
    check.ranges['mcpServers'] = field.valueRange;
  }
}
