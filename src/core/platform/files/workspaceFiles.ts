import type { Dirent } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import ignore, { type Ignore } from 'ignore';

/** The .gitignore rules of one folder, and where they apply from. */
interface Rules {
  /** Workspace-relative folder, '' for the root. */
  base: string;
  ignore: Ignore;
}

export interface WalkLimits {
  signal: AbortSignal;
  /** Stop after visiting this many files; the walk reports that it stopped early. */
  maxFiles: number;
}

/**
 * The workspace's files as git would list them: `.gitignore` files are honoured at every level
 * (an ignored folder is never entered, so node_modules costs nothing), `.git` is skipped, and
 * symbolic links are not followed, so a walk never leaves the workspace. Sorted, depth first.
 */
export async function* walkWorkspace(root: string, limits: WalkLimits): AsyncGenerator<string, { complete: boolean }> {
  let visited = 0;
  const stack: { rel: string; rules: Rules[] }[] = [{ rel: '', rules: [] }];
  while (stack.length > 0) {
    limits.signal.throwIfAborted();
    const { rel, rules: inherited } = stack.pop()!;
    const dir = join(root, rel);
    let entries: Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      continue; // unreadable or gone since its parent was listed
    }
    const rules = [...inherited];
    if (entries.some((e) => e.name === '.gitignore' && e.isFile())) {
      const text = await readFile(join(dir, '.gitignore'), 'utf8').catch(() => '');
      rules.push({ base: rel, ignore: ignore().add(text) });
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const subdirs: string[] = [];
    for (const entry of entries) {
      const path = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (entry.name !== '.git' && !isIgnored(rules, path, true)) subdirs.push(path);
      } else if (entry.isFile() && !isIgnored(rules, path, false)) {
        if (++visited > limits.maxFiles) return { complete: false };
        yield path;
      }
    }
    // Pushed in reverse so they are popped in name order.
    for (let i = subdirs.length - 1; i >= 0; i--) stack.push({ rel: subdirs[i]!, rules });
  }
  return { complete: true };
}

/** Deeper .gitignore files decide last, as git does; `!pattern` re-includes. */
function isIgnored(rules: readonly Rules[], path: string, isDir: boolean): boolean {
  let ignored = false;
  for (const r of rules) {
    const sub = r.base ? path.slice(r.base.length + 1) : path;
    const result = r.ignore.test(isDir ? `${sub}/` : sub);
    if (result.ignored) ignored = true;
    else if (result.unignored) ignored = false;
  }
  return ignored;
}
