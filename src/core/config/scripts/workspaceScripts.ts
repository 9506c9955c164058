import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';

/**
 * The workspace files a declared program names (a hook's command, an ACP agent's command and
 * arguments): consent given for a declaration covers these files' bytes, so a script rewritten
 * after the user allowed it is asked about again. A word names a file as a whole (`./x.sh`,
 * `scripts/x`) or anywhere inside it: a quoted `bash -c "a; ./x.sh"`, `open('x.py')`, `--file=x.js`.
 * What a program reads by a name it builds itself is out of reach; the README says so.
 */
export function workspaceScripts(root: string, words: readonly string[]): string[] {
  const found = new Set<string>();
  for (const word of words) {
    for (const candidate of new Set([word.replace(/^["']|["']$/g, ''), ...(word.match(/[\w.@+~/-]+/g) ?? [])])) {
      if (!candidate.includes('/') && !candidate.includes('.')) continue;
      const full = isAbsolute(candidate) ? candidate : resolve(root, candidate);
      const rel = relative(root, full);
      if (rel.startsWith('..') || isAbsolute(rel) || rel === '') continue;
      try {
        if (statSync(full).isFile()) found.add(rel.split('\\').join('/'));
      } catch {
        // Not a file of the workspace: an argument, a URL, a file outside.
      }
    }
  }
  return [...found].sort();
}

/** sha-256 over each script's name and its whole bytes (any size: a padded script is still seen to change). */
export function scriptsDigest(root: string, scripts: readonly string[]): string {
  const hash = createHash('sha256');
  for (const script of scripts) hash.update(`\0${script}\0${fileDigest(resolve(root, script))}`);
  return hash.digest('hex');
}

function fileDigest(path: string): string {
  try {
    return createHash('sha256').update(readFileSync(path)).digest('hex');
  } catch {
    return '(missing)';
  }
}
