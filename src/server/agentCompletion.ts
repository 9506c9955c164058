import { CompletionItemKind, InsertTextFormat, MarkupKind, type CompletionItem } from 'vscode-languageserver/node';
import { ACP_RECIPES, acpRecipeYaml } from '../core/config/agentFiles/acpRecipes';
import { FIELDS_OF, type AgentFileDialect } from '../core/config/agentFiles/agentFields';
import { CLAUDE_TOOL_NAMES, COPILOT_TOOL_NAMES, OUR_TOOLS } from '../core/config/agentFiles/toolNames';
import { BUILTIN_MODEL_ALIASES } from '../core/models/modelAliases';
import type { TextPosition } from '../core/config/profiles/profileProblem';
import { cursorContext } from './cursorContext';
import { toolHover } from './agentHover';

const TOOLS_OF: Record<AgentFileDialect, readonly string[]> = { native: OUR_TOOLS, claude: CLAUDE_TOOL_NAMES, copilot: COPILOT_TOOL_NAMES };

const EXAMPLE_SPECS = [
  'anthropic:claude-sonnet-5-5',
  'vscode-lm:copilot/gpt-4.1',
  'openai:gpt-4.1',
  'openai-compatible:http://localhost:11434/v1#llama3.1',
];

export interface CompletionWorld {
  dialect: AgentFileDialect;
  /** Every agent id known now, for `agents:`. */
  agents: readonly string[];
  /** The user's `subagents.modelAliases`. */
  aliases: Readonly<Record<string, unknown>>;
}

/** Field names at the start of a front-matter line; tools, agents and models in their values. */
export function completions(text: string, position: TextPosition, world: CompletionWorld): CompletionItem[] {
  const context = cursorContext(text, position);
  if (!context) return [];
  const fields = FIELDS_OF[world.dialect];
  if (context.kind === 'key') {
    return Object.entries(fields)
      .filter(([name]) => !context.present.includes(name))
      .map(([name, doc]) => ({
        label: name,
        kind: CompletionItemKind.Property,
        insertText: `${name}: `,
        documentation: { kind: MarkupKind.Markdown, value: doc.doc },
        ...(doc.example ? { detail: `${name}: ${doc.example}` } : {}),
      }));
  }
  const key = context.key;
  if (key === 'tools' || key === 'disallowedTools') {
    return TOOLS_OF[world.dialect].map((name) => ({
      label: name,
      kind: CompletionItemKind.Function,
      documentation: { kind: MarkupKind.Markdown, value: toolHover(name, world.dialect) },
    }));
  }
  if (key === 'acp') {
    // Ready external agents (issue 44 item 7): the command each maker documents for ACP on stdio.
    return ACP_RECIPES.map((recipe, i) => ({
      label: recipe.label,
      kind: CompletionItemKind.Snippet,
      detail: [recipe.acp.command, ...recipe.acp.args].join(' '),
      insertText: acpRecipeYaml(recipe),
      insertTextFormat: InsertTextFormat.PlainText,
      sortText: String(i),
      documentation: {
        kind: MarkupKind.Markdown,
        value: `Runs ${recipe.label} as a subagent over ACP. Log in first in a terminal: \`${recipe.login}\`. Documented at ${recipe.documented}`,
      },
    }));
  }
  if (key === 'agents') return world.agents.map((name) => ({ label: name, kind: CompletionItemKind.Reference }));
  if (key === 'model') {
    const aliases = [...new Set(['inherit', ...Object.keys(BUILTIN_MODEL_ALIASES), ...Object.keys(world.aliases)])];
    return [
      ...aliases.map((name) => ({
        label: name,
        kind: CompletionItemKind.Value,
        detail: name === 'inherit' ? "the parent's model" : 'model alias',
      })),
      ...EXAMPLE_SPECS.map((spec) => ({ label: spec, kind: CompletionItemKind.Value, detail: 'model spec' })),
    ];
  }
  if (['returnDirectly', 'enabled', 'user-invocable', 'disable-model-invocation', 'background'].includes(key)) {
    return ['true', 'false'].map((label) => ({ label, kind: CompletionItemKind.Value }));
  }
  return [];
}
