import { COPILOT_FIELDS } from './agentFields';
import { ignoredField, importModel, unknownField } from './fieldNotes';
import type { FileCheck } from './fileCheck';
import { readTools } from './importTools';
import { readMcpServersField } from './mcpServerFields';
import { slugify } from './nearest';

/**
 * A Copilot custom agent's fields in our terms (https://code.visualstudio.com/docs/copilot/customization/custom-agents):
 * tools and tool sets through the tool table, `model` (a name or a list, tried in order) and
 * `agents` as ours; `name` is the display name (validateAgentFile); every other field is a note.
 */
export function readCopilotFields(check: FileCheck, input: Record<string, unknown>, mcpServers: readonly string[]): void {
  for (const field of check.frontMatter.fields) {
    switch (field.key) {
      case 'name':
      case 'description':
        break;
      case 'tools': {
        if (field.value === null || field.value === undefined) break;
        const read = readTools(check, field, 'copilot', mcpServers);
        input['tools'] = read.tools;
        check.ranges['tools'] = field.valueRange;
        break;
      }
      case 'model':
        importModel(check, field, input);
        break;
      case 'mcp-servers':
        readMcpServersField(check, field, input, mcpServers);
        break;
      case 'agents': {
        const items = check.items(field);
        if (items.some((i) => i.value === '*')) break;
        input['agents'] = items.map((item, index) => {
          check.ranges[`agents.${index}`] = item.range;
          return slugify(item.value);
        });
        check.ranges['agents'] = field.valueRange;
        break;
      }
      case 'target':
        if (field.value === 'github-copilot') {
          check.add(
            'field-ignored',
            'information',
            'target',
            'this agent is written for GitHub\'s coding agent ("target: github-copilot"); it is loaded here too, and works in this workspace',
            field.valueRange,
          );
        }
        break;
      case 'user-invocable':
        // Here every agent is one the supervisor delegates to (and the CLI's --agent may start any): honoured as written.
        break;
      case 'disable-model-invocation':
        if (field.value === true) {
          check.add(
            'field-ignored',
            'warning',
            field.key,
            '"disable-model-invocation" is ignored: here only the supervisor starts agents, so it may still delegate to this one; set "enabled: false" in a profile of the same name to switch it off',
            field.keyRange,
          );
        }
        break;
      default: {
        const doc = COPILOT_FIELDS[field.key];
        if (doc) ignoredField(check, field, doc.doc);
        else unknownField(check, field, COPILOT_FIELDS, 'Copilot agents', 'information');
      }
    }
  }
}
