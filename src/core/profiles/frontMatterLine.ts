import { LineCounter, parseDocument, isMap, isScalar } from 'yaml';
import { lineAt } from '../settings/settingsKeyLine';

/**
 * The 1-based line of a field in an agent file's YAML front matter (its first segment: "tools" for
 * "tools.2"), for "open it at the place"; the front matter's first line when the field is not
 * there (a missing description is added there) or the YAML cannot be read.
 */
export function frontMatterLine(text: string, field: string): number {
  const match = /^(\uFEFF?---\r?\n)([\s\S]*?)\r?\n---/.exec(text);
  if (!match) return 1;
  const start = match[1]!.length;
  const key = field.split('.')[0];
  if (!key) return 1;
  const counter = new LineCounter();
  const doc = parseDocument(match[2]!, { lineCounter: counter });
  if (!isMap(doc.contents)) return 1;
  for (const pair of doc.contents.items) {
    if (isScalar(pair.key) && pair.key.value === key && pair.key.range) return lineAt(text, start + pair.key.range[0]);
  }
  return 1;
}
