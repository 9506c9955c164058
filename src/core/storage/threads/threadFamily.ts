import type { ThreadMeta } from './threadStore';

// A conversation's threads by their parentThreadId links, as the index has them.

/**
 * The top-level thread of `id`: up the parents the index knows (an entry's own parent first,
 * else `parent`, for a thread the index does not have yet), as far as they go.
 */
export function rootOf(id: string, parent: string | null, index: ReadonlyMap<string, Pick<ThreadMeta, 'parentThreadId'>>): string {
  const seen = new Set([id]);
  let root = id;
  let up = index.get(id)?.parentThreadId ?? parent;
  while (up !== null && !seen.has(up)) {
    seen.add(up);
    root = up;
    up = index.get(up)?.parentThreadId ?? null;
  }
  return root;
}

/** The thread and its descendants, parents before children, siblings oldest first. */
export function descendantsOf(threadId: string, index: ReadonlyMap<string, ThreadMeta>): string[] {
  const children = new Map<string, ThreadMeta[]>();
  for (const meta of index.values()) {
    if (meta.parentThreadId === null) continue;
    const list = children.get(meta.parentThreadId) ?? [];
    list.push(meta);
    children.set(meta.parentThreadId, list);
  }
  const out = [threadId];
  const seen = new Set(out);
  for (let i = 0; i < out.length; i++) {
    const kids = (children.get(out[i]!) ?? []).sort((a, b) => a.createdAt - b.createdAt);
    for (const kid of kids) {
      if (seen.has(kid.id)) continue;
      seen.add(kid.id);
      out.push(kid.id);
    }
  }
  return out;
}
