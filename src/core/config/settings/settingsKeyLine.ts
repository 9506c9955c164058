import { findNodeAtLocation, parseTree } from 'jsonc-parser';

/**
 * The 1-based line of a key in a settings.json text (JSONC), for "open it at the place": the
 * deepest part of `path` that exists, e.g. ["subagents.agents", "reviewer", "description"] falls
 * back to the line of "reviewer" when it has no description. Undefined when not even the first
 * key is there (or the text is not an object).
 */
export function settingsKeyLine(text: string, path: readonly string[]): number | undefined {
  const root = parseTree(text, [], { allowTrailingComma: true, disallowComments: false });
  if (!root) return undefined;
  for (let depth = path.length; depth > 0; depth--) {
    const node = findNodeAtLocation(root, path.slice(0, depth));
    if (!node) continue;
    // The value's property node starts at its key, which is where the eye looks.
    const offset = node.parent?.type === 'property' ? node.parent.offset : node.offset;
    return lineAt(text, offset);
  }
  return undefined;
}

export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}
