import { z } from 'zod';
import { lazySchema } from '../../../shared/lazySchema';
import { PatternError, searchFiles } from '../search/textSearch/searchFiles';
import { ripgrepPrefilter } from '../search/ripgrep/ripgrepSources';
import { defineTool, type AnyToolSpec } from '../toolSpec';
import { globMatcher } from './findFiles';
import type { WorkspaceToolDeps } from './toolDeps';

/** How far one search goes; tests give smaller caps to reach them on a small tree. */
export interface SearchTextLimits {
  maxMatches: number;
  /** Larger files are not read. */
  maxFileBytes: number;
  /** Files visited (after .gitignore) before the search stops. */
  maxVisited: number;
}

export const SEARCH_TEXT_LIMITS: SearchTextLimits = { maxMatches: 200, maxFileBytes: 2 * 1024 * 1024, maxVisited: 200_000 };
const DEFAULT_TIMEOUT_MS = 10_000;
const MAX_TIMEOUT_MS = 60_000;

const inputSchema = lazySchema(() =>
  z.object({
    pattern: z.string().min(1).max(1000).describe('A JavaScript regular expression.'),
    glob: z.string().optional().describe('Only files matching this glob.'),
    caseSensitive: z.boolean().optional().describe('Default false.'),
    timeoutMs: z.number().int().min(1).max(MAX_TIMEOUT_MS).optional().describe(`Default ${DEFAULT_TIMEOUT_MS}.`),
  }),
);

export function searchTextTool(
  { workspace, gate, commands }: WorkspaceToolDeps,
  limits: SearchTextLimits = SEARCH_TEXT_LIMITS,
): AnyToolSpec {
  const { maxMatches, maxFileBytes, maxVisited } = limits;
  return defineTool<z.infer<typeof inputSchema>>({
    name: 'search_text',
    description: `Search workspace files with a regular expression, skipping binary files and what .gitignore ignores. Returns "path:line: text" matches, at most ${maxMatches}.`,
    capabilities: ['read'],
    inputSchema,
    async execute(input, { signal }) {
      const inGlob = input.glob ? globMatcher(input.glob) : () => true;
      if (typeof inGlob !== 'function') return inGlob;
      // Files that may hold secrets would ask to be read one by one: a search leaves them out.
      let secretsSkipped = 0;
      const include = (path: string) => {
        if (!inGlob(path)) return false;
        if (!gate.readAsks(path)) return true;
        secretsSkipped++;
        return false;
      };
      const timeoutMs = input.timeoutMs ?? DEFAULT_TIMEOUT_MS;
      const caseSensitive = input.caseSensitive ?? false;
      let found;
      try {
        found = await searchFiles({
          // Ripgrep lists the files and picks those with a matching line; the JavaScript matcher reads them as it reads every file.
          prefilter: (stop) =>
            ripgrepPrefilter({ workspace, commands }, { pattern: input.pattern, caseSensitive, maxFileBytes }, stop, timeoutMs),
          root: workspace.root,
          pattern: input.pattern,
          caseSensitive,
          include,
          signal,
          deadlineMs: timeoutMs,
          maxMatches,
          maxFileBytes,
          maxVisited,
        });
      } catch (error) {
        if (error instanceof PatternError) return { error: error.message };
        throw error;
      }
      if (found.timedOut) {
        return {
          error:
            `search_text stopped after ${timeoutMs} ms, with ${found.matches.length} match(es) so far. ` +
            'The pattern may backtrack without end on some lines (nested repeats such as (a+)+ do); simplify it, anchor it, or narrow the search with glob.',
          matches: found.matches,
        };
      }
      const skipped = secretsSkipped
        ? ` ${secretsSkipped} files that may hold secrets (.env*, *.pem, *.key, SSH keys) were left out; read one with read_file, which asks.`
        : '';
      const foundNote = found.capped
        ? `Only the first ${maxMatches} matches are shown; narrow the pattern or add a glob.`
        : found.stoppedEarly
          ? `The workspace has more than ${maxVisited} files; the search stopped there. Add a glob.`
          : found.matches.length === 0
            ? `No match in ${found.searched} files (binary files and files over ${sizeInWords(maxFileBytes)} among them are not read; files ignored by .gitignore are not counted).`
            : '';
      const note = `${foundNote}${skipped}`.trim();
      return { matches: found.matches, ...(note ? { note } : {}) };
    },
  });
}

/** 2 MB, or 200 bytes. */
function sizeInWords(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MB` : `${bytes} bytes`;
}
