import { z } from 'zod';
import { lazySchema } from '../../../shared/lazySchema';
import { minimatchLibrary } from '../../platform/glob/minimatchLibrary';
import { defineTool, type AnyToolSpec } from '../toolSpec';
import { ripgrepListing } from '../search/ripgrep/ripgrepSources';
import { sortInWalkOrder } from '../search/ripgrep/walkOrder';
import { walkWorkspace } from '../../platform/files/workspaceFiles';
import type { WorkspaceToolDeps } from './toolDeps';

/** How far one listing goes; tests give smaller caps to reach them on a small tree. */
export interface FindFilesLimits {
  maxResults: number;
  /** Files visited (after .gitignore) before the listing stops. */
  maxVisited: number;
}

export const FIND_FILES_LIMITS: FindFilesLimits = { maxResults: 500, maxVisited: 200_000 };
/** Ripgrep lists 10k files in tens of ms; past this it is given up for the walker. */
const RIPGREP_TIMEOUT_MS = 30_000;

const inputSchema = lazySchema(() =>
  z.object({
    pattern: z.string().min(1).describe('E.g. "src/**/*.ts"; without "/" it matches file names at any depth.'),
  }),
);

/** A matcher for a workspace glob, or an error for a pattern that would look outside. */
export function globMatcher(pattern: string): ((path: string) => boolean) | { error: string } {
  const cleaned = pattern.replace(/^\.\//, '');
  if (cleaned.startsWith('/') || cleaned.split('/').includes('..')) {
    return { error: `The pattern "${pattern}" looks outside the workspace; patterns are relative to its root.` };
  }
  const matchBase = !cleaned.includes('/');
  const matcher = new (minimatchLibrary().Minimatch)(cleaned, { dot: true, matchBase });
  // Such a pattern is matched against the name alone: handing minimatch only the name spares it splitting the path.
  return matchBase ? (path) => matcher.match(path.slice(path.lastIndexOf('/') + 1)) : (path) => matcher.match(path);
}

/** The first matching files in walk order; `more`: there were others; `stoppedEarly`: the visit cap ended the walk. */
interface Found {
  files: string[];
  more: boolean;
  stoppedEarly: boolean;
}

/** The walker's answer: files come in walk order, so it stops at the first match past the cap. */
async function findWalked(
  walk: AsyncGenerator<string, { complete: boolean }>,
  match: (path: string) => boolean,
  { maxResults }: FindFilesLimits,
): Promise<Found> {
  const files: string[] = [];
  let step = await walk.next();
  for (; !step.done; step = await walk.next()) {
    if (!match(step.value)) continue;
    if (files.length === maxResults) return { files, more: true, stoppedEarly: false };
    files.push(step.value);
  }
  return { files, more: false, stoppedEarly: !step.value.complete };
}

/**
 * The same answer from ripgrep's list, which comes in no order: matched first, and only the
 * matches sorted (the whole list only when the visit cap has to cut it where the walk would stop).
 */
function findListed(listed: string[], match: (path: string) => boolean, { maxResults, maxVisited }: FindFilesLimits): Found {
  const stoppedEarly = listed.length > maxVisited;
  const visited = stoppedEarly ? sortInWalkOrder(listed).slice(0, maxVisited) : listed;
  const hits = sortInWalkOrder(visited.filter(match));
  const more = hits.length > maxResults;
  return { files: more ? hits.slice(0, maxResults) : hits, more, stoppedEarly: stoppedEarly && !more };
}

export function findFilesTool({ workspace, commands }: WorkspaceToolDeps, limits: FindFilesLimits = FIND_FILES_LIMITS): AnyToolSpec {
  const { maxResults, maxVisited } = limits;
  return defineTool<z.infer<typeof inputSchema>>({
    name: 'find_files',
    description: `Find workspace files by glob, skipping what .gitignore ignores. Returns sorted paths, at most ${maxResults}.`,
    capabilities: ['read'],
    inputSchema,
    async execute(input, { signal }) {
      const match = globMatcher(input.pattern);
      if (typeof match !== 'function') return match;
      const listed = await ripgrepListing({ workspace, commands }, signal, RIPGREP_TIMEOUT_MS);
      const { files, more, stoppedEarly } = listed
        ? findListed(listed, match, limits)
        : await findWalked(walkWorkspace(workspace.root, { signal, maxFiles: maxVisited }), match, limits);
      const note = more
        ? `Only the first ${maxResults} matches are shown; use a narrower pattern.`
        : stoppedEarly
          ? `The workspace has more than ${maxVisited} files; the search stopped there. Use a narrower pattern.`
          : undefined;
      if (files.length === 0 && !note)
        return { files, note: `No file matches "${input.pattern}" (files ignored by .gitignore are skipped).` };
      return { files, ...(note ? { note } : {}) };
    },
  });
}
