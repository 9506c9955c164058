/**
 * Turns tool inputs and outputs (arbitrary JSON) into short plain text for the tree. Inputs can
 * be large (write_file content), so the summary picks the telling field instead of stringifying.
 */

const SUMMARY_MAX = 120;
const OUTPUT_MAX = 20_000;
/** The fields that say what a call does, in order of preference (see DESIGN section 5). */
const TELLING_FIELDS = ['command', 'path', 'pattern', 'task', 'question', 'runId', 'query', 'url', 'id', 'name'];

function oneLine(text: string, max = SUMMARY_MAX): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

export function summarizeInput(input: unknown): string {
  if (input === undefined || input === null) return '';
  if (typeof input === 'string') return oneLine(input);
  if (typeof input !== 'object') return oneLine(String(input));
  const fields = input as Record<string, unknown>;
  const parts: string[] = [];
  const agents = fields.agents;
  if (Array.isArray(agents)) parts.push(agents.filter((a) => typeof a === 'string').join(', '));
  else if (typeof fields.agent === 'string') parts.push(fields.agent);
  for (const key of TELLING_FIELDS) {
    const v = fields[key];
    if (typeof v === 'string' && v) {
      parts.push(v);
      break;
    }
  }
  if (parts.length) return oneLine(parts.join(': '));
  return oneLine(safeJson(input, SUMMARY_MAX * 2));
}

/** The full output as text (built only when the user opens it), cut at a size the DOM handles comfortably. */
export function formatOutput(output: unknown): string {
  if (output === undefined) return '';
  const text = typeof output === 'string' ? output : safeJson(output, Infinity, 2);
  return text.length > OUTPUT_MAX ? `${text.slice(0, OUTPUT_MAX)}\n… (${text.length - OUTPUT_MAX} more characters)` : text;
}

function safeJson(value: unknown, max: number, indent?: number): string {
  try {
    const text = JSON.stringify(value, null, indent) ?? String(value);
    return text.length > max ? text.slice(0, max) : text;
  } catch {
    return String(value);
  }
}
