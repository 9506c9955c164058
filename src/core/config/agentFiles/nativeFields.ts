import { NATIVE_FIELDS } from './agentFields';
import { unknownField } from './fieldNotes';
import type { FileCheck } from './fileCheck';
import { readTools } from './importTools';
import { readMcpServersField } from './mcpServerFields';

/**
 * Our own agent files (.vscode/agents): every profile field as written; the profile schema checks
 * the values (validateAgentFile). Tool names are checked against ours here, so a Claude Code or
 * Copilot name gets a warning with a quick fix rather than silently doing nothing.
 */
export function readNativeFields(check: FileCheck, input: Record<string, unknown>, mcpServers: readonly string[]): void {
  for (const field of check.frontMatter.fields) {
    if (field.key === 'name' || field.key === 'description') continue;
    if (!NATIVE_FIELDS[field.key]) {
      unknownField(check, field, NATIVE_FIELDS, 'our agent files', 'warning');
      continue;
    }
    check.ranges[field.key] = field.valueRange;
    field.items?.forEach((item, index) => (check.ranges[`${field.key}.${index}`] = item.range));
    if ((field.key === 'tools' || field.key === 'disallowedTools') && (Array.isArray(field.value) || typeof field.value === 'string')) {
      input[field.key] = readTools(check, field, 'native', mcpServers).tools;
      continue;
    }
    if (field.key === 'mcpServers') {
      readMcpServersField(check, field, input, mcpServers);
      continue;
    }
    input[field.key] = field.value;
  }
}
