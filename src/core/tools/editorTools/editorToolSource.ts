import { jsonSchema } from '@ai-sdk/provider-utils';
import type { JSONSchema7 } from 'ai';
import { errorText } from '../../../shared/errorText';
import { capText } from '../../platform/processes/outputCap';
import type { Profile } from '../../config/profiles/profile';
import type { RunToolSource, RunToolSourceRequest } from '../runToolSource';
import type { AnyToolSpec, Capability } from '../toolSpec';
import { wrapUntrusted } from '../../access/untrusted/untrustedText';
import type { EditorToolCatalog, EditorToolInfo, EditorToolPart } from './editorToolCatalog';

/** As much of a result as other tools return (run_command's and MCP's cap). */
export const MAX_EDITOR_TOOL_OUTPUT = 30_000;
const MAX_DESCRIPTION = 1500;
/** Tags by which a tool says it only reads; without one it may change things. */
const READ_ONLY_TAGS = new Set(['readonly', 'read-only', 'read_only']);
/** What a model provider accepts as a tool name. */
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * The editor's tools as one of the engine's tool sources. A tool is offered only to a profile
 * whose `tools` names it exactly (never by default, never by a wildcard: another extension's tool
 * is code nobody in this workspace chose). A tool that does not say it is read-only (a tag
 * `readonly`) is `write` + `exec`: it asks in ask and autoEdit, counts as a write for the child
 * and trust filters, and an untrusted workspace bars it, like an MCP tool.
 */
export function editorToolSource(catalog: EditorToolCatalog): RunToolSource {
  const offeredTo = (profile: Profile) => {
    const wanted = profile.tools;
    if (!wanted?.length) return [];
    const denied = new Set(profile.disallowedTools ?? []);
    return catalog.tools().filter((tool) => wanted.includes(tool.name) && !denied.has(tool.name));
  };
  return {
    describeFor: (profile) => {
      const names = offeredTo(profile).map((t) => t.name);
      return names.length ? `editor tools (${names.join(', ')})` : undefined;
    },
    async toolsForRun(request) {
      const offered = offeredTo(request.profile);
      return offered.flatMap((tool) => {
        if (TOOL_NAME.test(tool.name)) return [toolSpec(catalog, tool, request)];
        request.emit({
          kind: 'warning',
          code: 'tools',
          message: `The editor tool "${tool.name}" has a name models do not accept (letters, digits, _ and -, at most 64), so this run goes on without it.`,
        });
        return [];
      });
    },
  };
}

export function editorToolCapabilities(tool: EditorToolInfo): Capability[] {
  return tool.tags.some((t) => READ_ONLY_TAGS.has(t.toLowerCase())) ? ['read'] : ['write', 'exec'];
}

function toolSpec(catalog: EditorToolCatalog, tool: EditorToolInfo, request: RunToolSourceRequest): AnyToolSpec {
  const capabilities = editorToolCapabilities(tool);
  const said = tool.description.trim();
  return {
    name: tool.name,
    description: `${said.length > MAX_DESCRIPTION ? `${said.slice(0, MAX_DESCRIPTION)}…` : said}${said ? ' ' : ''}(A tool of the editor, "${tool.name}".)`,
    capabilities,
    inputSchema: jsonSchema<unknown>(objectSchema(tool.inputSchema)),
    async execute(input, context) {
      if (capabilities.includes('write')) {
        const reason = `Calls the editor tool "${tool.name}" (registered by another extension or an MCP server of VS Code), which does not say it only reads.`;
        const allowed = await request.gate.check(tool.name, { kind: 'external', reason }, input, context);
        if (!allowed.ok) return { error: allowed.error };
      }
      try {
        const parts = await catalog.invoke(tool.name, typeof input === 'object' && input !== null ? input : {}, context.signal);
        return resultForModel(tool.name, parts);
      } catch (error) {
        if (context.signal.aborted) return { error: `Cancelled: the call to ${tool.name} was stopped.` };
        return { error: `${tool.name} failed: ${errorText(error)}` };
      }
    },
  };
}

/** Text as text, other parts a line each; capped, and marked as the tool's words, not the user's. */
function resultForModel(name: string, parts: readonly EditorToolPart[]): string {
  const lines = parts.map((p) =>
    p.type === 'text'
      ? p.text
      : p.type === 'data'
        ? `[data (${p.mimeType}, ${p.bytes} bytes): not shown here]`
        : '[content of a kind that is not shown here]',
  );
  const whole = lines.filter((l) => l !== '').join('\n\n') || '(the tool returned nothing)';
  const { text, cutChars } = capText(whole, MAX_EDITOR_TOOL_OUTPUT);
  const body = cutChars > 0 ? `${text}\n[${cutChars} characters of this result were cut from the middle.]` : text;
  return wrapUntrusted({ kind: 'editor-tool-result', author: `the editor tool ${name}` }, body);
}

/** Providers want an object schema at the top; a tool that declares none takes no input. */
function objectSchema(schema: object | undefined): JSONSchema7 {
  const s = schema as JSONSchema7 | undefined;
  if (!s || s.type !== 'object') return { type: 'object', properties: {} };
  return { ...s, properties: s.properties ?? {} };
}
