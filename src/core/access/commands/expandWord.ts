import { readdir } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { minimatchLibrary } from '../../platform/glob/minimatchLibrary';
import { expandBraces, TooManyWords, type QChar } from './braceExpansion';
import type { Piece } from './wordPieces';

/**
 * What bash would make of a word before the command sees it, as far as it can be known without
 * running anything: brace expansion, `~`, and globs matched against the real files, then quote
 * removal. A variable or a substitution makes the word unknown; so does a glob when the folder it
 * is matched in is unknown.
 */
export type Expanded = { known: true; values: string[] } | { known: false; text: string; variable: boolean; why: string };

export interface ExpandContext {
  home: string;
  /** The physical folder the command runs in, for globs and `~+`; undefined when unknown. */
  cwd: string | undefined;
}

/** A glob that matches more than this many paths is not listed for judging. */
const MAX_GLOB_MATCHES = 1000;

export async function expandWord(pieces: readonly Piece[], context: ExpandContext): Promise<Expanded> {
  const written = pieces.map((p) => ('dynamic' in p ? p.dynamic : p.text)).join('');
  const dynamic = pieces.find((p): p is Extract<Piece, { dynamic: string }> => 'dynamic' in p);
  if (dynamic) return { known: false, text: written, variable: dynamic.variable, why: `${dynamic.dynamic} is known only when it runs` };
  const chars: QChar[] = pieces.flatMap((p) => ('text' in p ? [...p.text].map((c) => ({ c, quoted: p.quoted })) : []));
  let words: QChar[][];
  try {
    words = expandBraces(chars);
  } catch (error) {
    if (error instanceof TooManyWords)
      return { known: false, text: written, variable: false, why: 'its braces expand to too many words to judge' };
    throw error;
  }
  const values: string[] = [];
  for (const word of words) {
    const tilded = expandTilde(word, context);
    if (!tilded) return { known: false, text: written, variable: true, why: `${written} names another user's home or a previous folder` };
    // An empty word left by brace expansion is dropped, as bash drops it (`{x,}` is one word).
    if (tilded.length === 0 && words.length > 1) continue;
    if (!hasGlob(tilded)) {
      values.push(plain(tilded));
      continue;
    }
    if (context.cwd === undefined)
      return { known: false, text: written, variable: false, why: `${written} is a glob in a folder known only when it runs` };
    const matches = await matchGlob(tilded, context.cwd);
    if (matches === undefined)
      return { known: false, text: written, variable: false, why: `${written} matches too many files to judge one by one` };
    // No match: bash passes the word on as written.
    values.push(...(matches.length ? matches : [plain(tilded)]));
  }
  return { known: true, values };
}

function plain(word: readonly QChar[]): string {
  return word.map((ch) => ch.c).join('');
}

/** `~` and `~/x` become the home folder, `~+` the current folder; `~user` and `~-` are unknown. */
function expandTilde(word: QChar[], context: ExpandContext): QChar[] | undefined {
  // Also after `NAME=`, which bash expands in arguments too (`--prefix=~` is not, `a=~` is).
  const assignment = /^[A-Za-z_][A-Za-z0-9_]*=/.exec(plain(word));
  const at =
    word[0]?.c === '~' && !word[0].quoted
      ? 0
      : assignment && word[assignment[0].length]?.c === '~' && !word[assignment[0].length]!.quoted
        ? assignment[0].length
        : -1;
  if (at < 0) return word;
  let end = at + 1;
  while (end < word.length && !(word[end]!.c === '/' && !word[end]!.quoted)) {
    if (word[end]!.quoted) return word;
    end++;
  }
  const user = plain(word.slice(at + 1, end));
  let replacement: string;
  if (user === '') replacement = context.home;
  else if (user === '+' && context.cwd) replacement = context.cwd;
  else return undefined;
  return [...word.slice(0, at), ...[...replacement].map((c) => ({ c, quoted: true })), ...word.slice(end)];
}

function hasGlob(word: readonly QChar[]): boolean {
  return word.some((ch) => !ch.quoted && (ch.c === '*' || ch.c === '?' || ch.c === '['));
}

/**
 * The paths a glob matches, relative as written, sorted as bash sorts them; undefined past the
 * limit. Leading dots are matched only by a leading dot in the pattern, as bash does by default.
 */
async function matchGlob(word: readonly QChar[], cwd: string): Promise<string[] | undefined> {
  const segments: QChar[][] = [[]];
  for (const ch of word) {
    if (ch.c === '/') segments.push([]);
    else segments[segments.length - 1]!.push(ch);
  }
  const absolute = isAbsolute(plain(word));
  let found: { shown: string; real: string }[] = [{ shown: absolute ? '/' : '', real: absolute ? '/' : cwd }];
  for (const [index, segment] of segments.entries()) {
    if (absolute && index === 0) continue;
    const last = index === segments.length - 1;
    const joinShown = (base: string, name: string) => (base === '' ? name : base.endsWith('/') ? `${base}${name}` : `${base}/${name}`);
    if (!hasGlob(segment)) {
      const name = plain(segment);
      found = found.map((f) => ({ shown: joinShown(f.shown, name), real: join(f.real, name) }));
      continue;
    }
    const pattern = segment
      .map((ch) => (ch.quoted && /[*?[\]\\{}()!+@]/.test(ch.c) ? `\\${ch.c}` : ch.c))
      .join('')
      .replace(/\*\*+/g, '*');
    const next: typeof found = [];
    const { minimatch } = minimatchLibrary();
    for (const f of found) {
      const entries = await readdir(f.real, { withFileTypes: true }).catch(() => []);
      for (const entry of entries) {
        if (!minimatch(entry.name, pattern, { dot: false, nobrace: true, noext: true })) continue;
        if (!last && !entry.isDirectory() && !entry.isSymbolicLink()) continue;
        next.push({ shown: joinShown(f.shown, entry.name), real: join(f.real, entry.name) });
        if (next.length > MAX_GLOB_MATCHES) return undefined;
      }
    }
    found = next;
    if (found.length === 0) return [];
  }
  return found.map((f) => f.shown).sort();
}
