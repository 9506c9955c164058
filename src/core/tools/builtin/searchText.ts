import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { defineTool, type AnyToolSpec } from '../toolSpec';
import { walkWorkspace } from '../workspaceFiles';
import { globMatcher } from './findFiles';
import { looksBinary, type WorkspaceToolDeps } from './toolDeps';

const MAX_MATCHES = 200;
const MAX_LINE_CHARS = 300;
const MAX_FILE_BYTES = 2 * 1024 * 1024;
const MAX_VISITED = 200_000;

const inputSchema = z.object({
  pattern: z.string().min(1).max(1000).describe('A JavaScript regular expression, e.g. "function \\\\w+Tool" or "TODO|FIXME".'),
  glob: z.string().optional().describe('Only search files matching this glob, e.g. "src/**/*.ts" or "*.md".'),
  caseSensitive: z.boolean().optional().describe('Default false: letter case is ignored.'),
});

export function searchTextTool({ workspace }: WorkspaceToolDeps): AnyToolSpec {
  return defineTool<z.infer<typeof inputSchema>>({
    name: 'search_text',
    description:
      'Search the text of the workspace files with a regular expression, skipping what .gitignore ignores and binary files. ' +
      `Returns {matches}: "path:line: text" strings, at most ${MAX_MATCHES}; narrow with glob.`,
    capabilities: ['read'],
    inputSchema,
    async execute(input, { signal }) {
      let re: RegExp;
      try {
        re = new RegExp(input.pattern, input.caseSensitive ? 'u' : 'iu');
      } catch (error) {
        return { error: `The pattern is not a valid regular expression: ${(error as Error).message}.` };
      }
      const match = input.glob ? globMatcher(input.glob) : () => true;
      if (typeof match !== 'function') return match;
      const matches: string[] = [];
      let capped = false;
      let searched = 0;
      const walk = walkWorkspace(workspace.root, { signal, maxFiles: MAX_VISITED });
      let step = await walk.next();
      files: for (; !step.done; step = await walk.next()) {
        const path = step.value;
        if (!match(path)) continue;
        const abs = join(workspace.root, path);
        const size = await stat(abs).then((s) => s.size, () => Infinity);
        if (size > MAX_FILE_BYTES) continue;
        const text = await readFile(abs, 'utf8').catch(() => '');
        if (looksBinary(text)) continue;
        searched++;
        const lines = text.split(/\r?\n/);
        for (let i = 0; i < lines.length; i++) {
          // Very long lines (minified code) are tested in part: a regex over megabytes could stall the host.
          const line = lines[i]!.length > 10_000 ? lines[i]!.slice(0, 10_000) : lines[i]!;
          if (!re.test(line)) continue;
          if (matches.length === MAX_MATCHES) {
            capped = true;
            break files;
          }
          matches.push(`${path}:${i + 1}: ${line.trim().slice(0, MAX_LINE_CHARS)}`);
        }
      }
      const stoppedEarly = step.done && !step.value.complete;
      const note = capped
        ? `Only the first ${MAX_MATCHES} matches are shown; narrow the pattern or add a glob.`
        : stoppedEarly
          ? `The workspace has more than ${MAX_VISITED} files; the search stopped there. Add a glob.`
          : matches.length === 0
            ? `No match in ${searched} files (files ignored by .gitignore, binary files and files over 2 MB are skipped).`
            : undefined;
      return { matches, ...(note ? { note } : {}) };
    },
  });
}
