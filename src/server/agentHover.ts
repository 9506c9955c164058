import { FIELDS_OF, type AgentFileDialect } from '../core/config/agentFiles/agentFields';
import { mapClaudeTool, mapCopilotTool, OUR_TOOLS, type ToolMapping } from '../core/config/agentFiles/toolNames';
import type { FrontMatter } from '../core/config/agentFiles/frontMatter';
import { chooseModel, type ModelAvailability } from '../core/models/modelAliases';
import type { TextPosition, TextRange } from '../core/config/profiles/profileProblem';

const inside = (r: TextRange, p: TextPosition): boolean =>
  (p.line > r.start.line || (p.line === r.start.line && p.character >= r.start.character)) &&
  (p.line < r.end.line || (p.line === r.end.line && p.character <= r.end.character));

/** What a tool name means here, in a sentence of Markdown. */
export function toolHover(name: string, dialect: AgentFileDialect): string {
  if (OUR_TOOLS.includes(name)) return `\`${name}\`: one of our tools.`;
  const mapping: ToolMapping = dialect === 'copilot' ? mapCopilotTool(name) : mapClaudeTool(name);
  switch (mapping.kind) {
    case 'ours':
      return `\`${name}\` → ${mapping.tools.map((t) => `\`${t}\``).join(', ')}${mapping.approximate ? ` (${mapping.approximate})` : ''}.`;
    case 'later':
      return `\`${name}\`: not available yet; ${mapping.what}.`;
    case 'mcp':
      return `\`${name}\` → \`${mapping.name}\`, a tool of the MCP server \`${mapping.server}\` (used when that server is configured).`;
    case 'none':
      return `\`${name}\`: nothing like it here; ${mapping.why}.`;
    default:
      return `\`${name}\`: not a tool we know.`;
  }
}

/** Hover for a field name (its doc), a tool (what it maps to) or the model (what it resolves to here). */
export function hoverAt(
  frontMatter: FrontMatter,
  position: TextPosition,
  dialect: AgentFileDialect,
  aliases: Readonly<Record<string, string | readonly string[]>>,
  models: ModelAvailability,
): { markdown: string; range: TextRange } | undefined {
  for (const field of frontMatter.fields) {
    if (inside(field.keyRange, position)) {
      const doc = FIELDS_OF[dialect][field.key];
      return {
        markdown: doc ? `**${field.key}**: ${doc.doc}` : `**${field.key}**: not a field of this kind of agent file.`,
        range: field.keyRange,
      };
    }
    if (field.key === 'tools' || field.key === 'disallowedTools') {
      for (const item of field.items ?? []) {
        if (inside(item.range, position) && typeof item.value === 'string')
          return { markdown: toolHover(item.value, dialect), range: item.range };
      }
    }
    if (field.key === 'model' && inside(field.valueRange, position) && field.value !== null) {
      const ref = Array.isArray(field.value) ? field.value.map(String) : String(field.value);
      const choice = chooseModel(ref, aliases, models);
      const markdown =
        choice.kind === 'spec'
          ? `Runs on \`${choice.spec}\`${choice.via ? ` (from "${choice.via}")` : ''}.`
          : choice.message
            ? `${choice.message}.`
            : "Uses its parent's model.";
      return { markdown, range: field.valueRange };
    }
  }
  return undefined;
}
