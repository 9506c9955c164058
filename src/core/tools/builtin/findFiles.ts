import { Minimatch } from 'minimatch';
import { z } from 'zod';
import { defineTool, type AnyToolSpec } from '../toolSpec';
import { workspaceFiles } from '../../ripgrep/ripgrepSources';
import type { WorkspaceToolDeps } from './toolDeps';

const MAX_RESULTS = 500;
const MAX_VISITED = 200_000;
/** Ripgrep lists 10k files in tens of ms; past this it is given up for the walker. */
const RIPGREP_TIMEOUT_MS = 30_000;

const inputSchema = z.object({
  pattern: z.string().min(1).describe('A glob such as "src/**/*.ts" or "*.md". A pattern without "/" matches file names at any depth.'),
});

/** A matcher for a workspace glob, or an error for a pattern that would look outside. */
export function globMatcher(pattern: string): ((path: string) => boolean) | { error: string } {
  const cleaned = pattern.replace(/^\.\//, '');
  if (cleaned.startsWith('/') || cleaned.split('/').includes('..')) {
    return { error: `The pattern "${pattern}" looks outside the workspace; patterns are relative to its root.` };
  }
  const matcher = new Minimatch(cleaned, { dot: true, matchBase: !cleaned.includes('/') });
  return (path) => matcher.match(path);
}

export function findFilesTool({ workspace, commands }: WorkspaceToolDeps): AnyToolSpec {
  return defineTool<z.infer<typeof inputSchema>>({
    name: 'find_files',
    description:
      'Find files in the workspace by glob pattern, skipping what .gitignore ignores. Returns {files} (workspace-relative paths, sorted), ' +
      `at most ${MAX_RESULTS}.`,
    capabilities: ['read'],
    inputSchema,
    async execute(input, { signal }) {
      const match = globMatcher(input.pattern);
      if (typeof match !== 'function') return match;
      const files: string[] = [];
      const walk = await workspaceFiles({ workspace, commands }, signal, MAX_VISITED, RIPGREP_TIMEOUT_MS);
      let more = false;
      let step = await walk.next();
      for (; !step.done; step = await walk.next()) {
        if (!match(step.value)) continue;
        if (files.length === MAX_RESULTS) {
          more = true;
          break;
        }
        files.push(step.value);
      }
      const stoppedEarly = step.done && !step.value.complete;
      const note = more
        ? `Only the first ${MAX_RESULTS} matches are shown; use a narrower pattern.`
        : stoppedEarly
          ? `The workspace has more than ${MAX_VISITED} files; the search stopped there. Use a narrower pattern.`
          : undefined;
      if (files.length === 0 && !note) return { files, note: `No file matches "${input.pattern}" (files ignored by .gitignore are skipped).` };
      return { files, ...(note ? { note } : {}) };
    },
  });
}
