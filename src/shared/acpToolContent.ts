import { editDiff, type EditDiff } from './editDiff';

/** The blocks it makes (a part of toolDetail.ts's DetailBlock, which imports this file). */
export type AcpContentBlock =
  { kind: 'diff'; diff: EditDiff; path?: string } | { kind: 'text'; title: string; text: string } | { kind: 'note'; text: string };

/**
 * An external agent's tool call (`acp:<kind>`, src/core/run/external/acpUpdates.ts) carries ACP's
 * content list in its input (said when it started) and its output (said when it ended): diffs
 * (`{ type: "diff", path, oldText, newText }`) are shown as diffs, text as text, the rest as it is.
 */
export function acpContentBlocks(input: unknown, output: unknown): AcpContentBlock[] | undefined {
  const items = [...contentOf(input), ...contentOf(output)];
  if (items.length === 0) return undefined;
  const blocks: AcpContentBlock[] = [];
  for (const item of items) {
    if (item.type === 'diff' && typeof item.newText === 'string') {
      const path = typeof item.path === 'string' ? item.path : undefined;
      const before = typeof item.oldText === 'string' ? item.oldText : '';
      blocks.push({ kind: 'diff', diff: editDiff(before, item.newText), ...(path ? { path } : {}) });
    } else if (item.type === 'content' && isRecord(item.content) && typeof item.content.text === 'string') {
      blocks.push({ kind: 'text', title: 'Output', text: item.content.text });
    } else if (item.type === 'terminal') {
      blocks.push({ kind: 'note', text: 'It ran a command in a terminal of its own.' });
    }
  }
  return blocks;
}

type Item = Record<string, unknown>;
const isRecord = (v: unknown): v is Item => typeof v === 'object' && v !== null && !Array.isArray(v);

function contentOf(value: unknown): Item[] {
  if (!isRecord(value) || !Array.isArray(value.content)) return [];
  return value.content.filter(isRecord).slice(0, 50);
}
