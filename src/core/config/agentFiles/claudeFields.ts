import { CLAUDE_FIELDS } from './agentFields';
import { ignoredField, importModel, unknownField, wrongValue } from './fieldNotes';
import type { FileCheck } from './fileCheck';
import { readTools } from './importTools';
import { readMcpServersField } from './mcpServerFields';

/**
 * A Claude Code agent's fields in our terms (https://docs.anthropic.com/en/docs/claude-code/sub-agents):
 * tools and disallowedTools through the tool table, maxTurns as maxSteps, model as written (an
 * alias is resolved with the other profiles), isolation: worktree as ours; every other field is a note. `name` and
 * `description` are read by validateAgentFile.
 */
export function readClaudeFields(check: FileCheck, input: Record<string, unknown>, mcpServers: readonly string[]): void {
  for (const field of check.frontMatter.fields) {
    switch (field.key) {
      case 'name':
      case 'description':
        break;
      case 'tools':
      case 'disallowedTools': {
        if (field.value === null || field.value === undefined) break;
        const read = readTools(check, field, 'claude', mcpServers);
        input[field.key] = read.tools;
        if (read.agents && field.key === 'tools') input['agents'] = read.agents;
        check.ranges[field.key] = field.valueRange;
        break;
      }
      case 'model':
        importModel(check, field, input);
        break;
      case 'skills': {
        const names = check.items(field).map((i) => i.value);
        if (names.length > 0) {
          input['skills'] = names;
          check.ranges['skills'] = field.valueRange;
        }
        break;
      }
      case 'mcpServers':
        readMcpServersField(check, field, input, mcpServers);
        break;
      case 'isolation':
        if (field.value === 'worktree') {
          input['isolation'] = 'worktree';
          check.ranges['isolation'] = field.valueRange;
        } else wrongValue(check, field, '"worktree"');
        break;
      case 'maxTurns':
        if (typeof field.value === 'number' && Number.isInteger(field.value) && field.value >= 1 && field.value <= 1000) {
          input['maxSteps'] = field.value;
          check.ranges['maxSteps'] = field.valueRange;
        } else wrongValue(check, field, 'a whole number from 1 to 1000');
        break;
      default: {
        const doc = CLAUDE_FIELDS[field.key];
        if (doc) ignoredField(check, field, doc.doc);
        else unknownField(check, field, CLAUDE_FIELDS, 'Claude Code agents', 'information');
      }
    }
  }
}
