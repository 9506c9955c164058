import { existsSync } from 'node:fs';
import { chmod } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { git, unpackRepo, writeFiles } from './fieldWorkspace';
import { failedCalls, outputOf, runSession, topStatus } from './fieldSession';
import type { RunEvent } from '../../src/shared/events';

// The repository's own hooks on real work (hukkin/tomli): a PostToolUse hook that byte-compiles
// each edited Python file through a helper it sources, and a Stop hook that runs the suite, as
// people write them for Claude Code. They now run in the OS sandbox (issue 40): what they need
// there (python3, the workspace, a temp folder, __pycache__) must work, and an edit that breaks
// the syntax must still be caught by the hook.
const UNITTEST = 'python3 -m unittest 2>&1 | tail -n 5';
const ENV = { PYTHONPATH: 'src' };

const HOOKS = JSON.stringify({
  hooks: {
    PostToolUse: [{ matcher: 'Edit|Write', hooks: [{ type: 'command', command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/compile.sh' }] }],
    Stop: [{ hooks: [{ type: 'command', command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/suite.sh' }] }],
  },
});

// The helper is read by name at run time (`.`), as shared hook libraries are: consent does not cover it.
const LIB = `edited_file() { python3 -c 'import json,sys; print(json.load(sys.stdin)["tool_input"]["file_path"])'; }\n`;
const COMPILE = `#!/bin/sh
. "$CLAUDE_PROJECT_DIR/.claude/hooks/lib.sh"
file=$(edited_file)
case "$file" in *.py) ;; *) exit 0 ;; esac
python3 -m py_compile "$file" 2>/dev/null || { echo "$file does not compile: fix its syntax" >&2; exit 2; }
echo "compiled $file" > "$TMPDIR/last-compile"
# Outside the workspace: the sandbox refuses it, quietly here.
touch "$CLAUDE_PROJECT_DIR/../hook-was-here" 2>/dev/null || true
`;
const SUITE = `#!/bin/sh
cd "$CLAUDE_PROJECT_DIR" && PYTHONPATH=src python3 -m unittest >"$TMPDIR/suite.log" 2>&1 || { tail -n 5 "$TMPDIR/suite.log" >&2; exit 2; }
`;

const cli = { path: inject('fieldCli') };

const hookRuns = (events: readonly RunEvent[]) => events.filter((e): e is Extract<RunEvent, { kind: 'hook.ran' }> => e.kind === 'hook.ran');

describe('field: hukkin/tomli with its own hooks', () => {
  it('a PostToolUse compile check and a Stop suite hook run in the sandbox on several edits of one file in one step, and catch a broken edit', async () => {
    const repo = await unpackRepo('tomli.tar.gz', 'tomli');
    try {
      await writeFiles(repo.root, {
        '.claude/settings.json': HOOKS,
        '.claude/hooks/lib.sh': LIB,
        '.claude/hooks/compile.sh': COMPILE,
        '.claude/hooks/suite.sh': SUITE,
      });
      for (const name of ['compile.sh', 'suite.sh']) await chmod(join(repo.root, '.claude', 'hooks', name), 0o755);
      git(repo.root, 'add', '-A');
      git(repo.root, '-c', 'user.name=Field Test', '-c', 'user.email=field@example.invalid', 'commit', '-qm', 'hooks');
      const session = await runSession(
        cli.path,
        repo.root,
        {
          supervisor: [
            {
              text: 'Reading the entry point.',
              toolCalls: [{ tool: 'read_file', input: { path: 'src/tomli/_parser.py', startLine: 1, endLine: 60 } }],
            },
            {
              // Three edits of one file in one step, the second a typo the hook must catch.
              text: 'Tightening the docstrings.',
              toolCalls: [
                {
                  tool: 'edit_file',
                  input: {
                    path: 'src/tomli/_parser.py',
                    oldText: '    """Parse TOML from a binary file object."""\n',
                    newText: '    """Parse TOML from a binary file object (bytes, not text)."""\n',
                  },
                },
                {
                  tool: 'edit_file',
                  input: { path: 'src/tomli/_parser.py', oldText: '        s = b.decode()\n', newText: '        s = b.decode(\n' },
                },
                {
                  tool: 'edit_file',
                  input: {
                    path: 'src/tomli/_parser.py',
                    oldText: '    """Parse TOML from a string."""\n',
                    newText: '    """Parse TOML from a string (a str, not bytes)."""\n',
                  },
                },
              ],
            },
            {
              text: 'The hook says the file no longer compiles: my second edit. Fixing it.',
              toolCalls: [
                {
                  tool: 'edit_file',
                  input: { path: 'src/tomli/_parser.py', oldText: '        s = b.decode(\n', newText: '        s = b.decode()\n' },
                },
              ],
            },
            {
              text: 'Checking.',
              toolCalls: [
                { tool: 'run_command', input: { command: UNITTEST } },
                { tool: 'run_command', input: { command: 'git diff --stat' } },
              ],
            },
            { text: 'Docstrings tightened in src/tomli/_parser.py; the suite passes.' },
          ],
        },
        { prompt: 'Tighten the docstrings of load and loads.', allow: ['python3 -m unittest'], env: ENV, flags: ['--allow-hooks'] },
      );

      const runs = hookRuns(session.events);
      const compiles = runs.filter((r) => r.event === 'PostToolUse');
      expect.soft(session.result.stderr).not.toMatch(/not run|unsandboxed|without the sandbox/i);
      // Every edit was checked. The step's three edits take turns on the file, but their hooks run as
      // each edit ends, so a hook may already see the broken second edit: at least one of the step's
      // checks catches it with the hook's words, and the check after the fix passes.
      expect.soft(compiles).toHaveLength(4);
      const caught = compiles.slice(0, 3).filter((r) => r.exitCode === 2);
      expect.soft(caught.length).toBeGreaterThan(0);
      expect.soft(caught.every((r) => (r.note ?? '').includes('does not compile: fix its syntax'))).toBe(true);
      expect.soft(compiles.slice(0, 3).every((r) => r.exitCode === 0 || r.exitCode === 2)).toBe(true);
      expect.soft(compiles[3]?.exitCode).toBe(0);
      // The suite hook ran once at the end, green, in a temp folder of its own.
      expect.soft(runs.filter((r) => r.event === 'Stop').map((r) => r.exitCode)).toEqual([0]);
      expect.soft(outputOf(session.events, UNITTEST)).toMatch(/Ran 16 tests[\s\S]*OK/);
      expect.soft(outputOf(session.events, 'git diff --stat')).toContain('src/tomli/_parser.py | 4 ++--');
      expect.soft(failedCalls(session.events)).toEqual([]);
      expect.soft(topStatus(session.events), session.result.stderr).toBe('ok');
      // They ran in the OS sandbox: the write beside the repository never landed.
      expect.soft(existsSync(join(repo.root, '..', 'hook-was-here'))).toBe(false);
      // The hooks' byte-compiling left nothing git tracks; only the agent's edit shows.
      expect(git(repo.root, 'status', '--porcelain', '--untracked-files=all').split('\n').filter(Boolean)).toEqual([
        ' M src/tomli/_parser.py',
      ]);
    } finally {
      await repo.dispose();
    }
  }, 180_000);
});
