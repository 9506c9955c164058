import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';
import { git, unpackRepo, writeFiles } from './fieldWorkspace';
import { failedCalls, fromResult, missingEdits, outputOf, runSession, topStatus, type Session } from './fieldSession';

// Issue 39's proof on hukkin/tomli (Python, unittest): as defu.test.ts, with the tests run by
// `python3 -m unittest`. The user's shell has PYTHONPATH=src, as tomli's README has them run it.
const execAsync = promisify(execFile);
const UNITTEST = 'python3 -m unittest 2>&1 | tail -n 40';
const RED = 'python3 -m unittest tests.test_misc 2>&1 | tail -n 40';
const ALLOW = ['python3 -m unittest'];
const ENV = { PYTHONPATH: 'src' };

const TDD = `---
description: Test-driven fixer. Writes a failing test for the reported problem, runs it red, fixes the code, runs the suite green.
tools: ['codebase', 'edit/editFiles', 'search', 'runCommands']
---
Work test first. Batch aggressively: read every file you need in one step, make every edit of a step at once.
`;

const REVIEWER = `---
name: code-reviewer
description: Reviews a change or a module for correctness and robustness; reports findings with file and line.
tools: Read, Grep, Glob, Bash
---
You are a senior reviewer. Read the code, run what helps you judge it, and report findings by severity.
`;

const BOM_TEST = `    def test_load_skips_utf8_bom(self):
        self.assertEqual(tomllib.load(io.BytesIO(b"\\xef\\xbb\\xbfa = 1\\n")), {"a": 1})

`;

const cli = { path: inject('fieldCli') };

async function checkout() {
  const repo = await unpackRepo('tomli.tar.gz', 'tomli');
  await writeFiles(repo.root, { '.github/agents/tdd.agent.md': TDD, '.claude/agents/code-reviewer.md': REVIEWER });
  git(repo.root, 'add', '-A');
  git(repo.root, '-c', 'user.name=Field Test', '-c', 'user.email=field@example.invalid', 'commit', '-qm', 'agent files');
  return repo;
}

async function expectFinishedWell(root: string, session: Session, tests: number): Promise<void> {
  expect.soft(failedCalls(session.events), 'tool calls that were refused or failed').toEqual([]);
  expect.soft(await missingEdits(root, session.events), 'reported edits missing on disk').toEqual([]);
  expect.soft(topStatus(session.events), session.result.stderr).toBe('ok');
  expect.soft(session.result.code, session.result.stderr).toBe(0);
  const direct = await execAsync('python3', ['-m', 'unittest'], { cwd: root, env: { ...process.env, ...ENV } }).then(
    (r) => `${r.stdout}${r.stderr}`,
    (e: { stdout: string; stderr: string }) => `FAILED\n${e.stdout}${e.stderr}`,
  );
  expect(direct).toMatch(new RegExp(`Ran ${tests} tests[\\s\\S]*\\nOK\\s*$`));
}

describe('field: hukkin/tomli', () => {
  it('a Copilot agent runs a regression test red, fixes load() for a UTF-8 BOM and runs the suite green', async () => {
    const repo = await checkout();
    try {
      const session = await runSession(
        cli.path,
        repo.root,
        {
          supervisor: [
            {
              text: 'Handing it to the tdd agent.',
              toolCalls: [
                {
                  tool: 'delegate_task',
                  input: {
                    agents: ['tdd'],
                    task: 'tomli.load fails on a file that starts with a UTF-8 BOM. Red/green it: a regression test in tests/test_misc.py, then the fix.',
                  },
                },
              ],
            },
            { text: 'Fixed with a regression test; the suite passes.' },
          ],
          tdd: [
            {
              text: 'Reading the parser entry points and the tests.',
              toolCalls: [
                { tool: 'read_file', input: { path: 'src/tomli/_parser.py', startLine: 130, endLine: 170 } },
                { tool: 'read_file', input: { path: 'tests/test_misc.py' } },
                { tool: 'read_file', input: { path: 'tests/__init__.py' } },
                { tool: 'search_text', input: { pattern: 'def load', glob: 'src/**/*.py' } },
              ],
            },
            {
              text: 'The regression test, red first.',
              toolCalls: [
                {
                  tool: 'edit_file',
                  input: { path: 'tests/test_misc.py', oldText: 'import importlib\n', newText: 'import importlib\nimport io\n' },
                },
                {
                  tool: 'edit_file',
                  input: {
                    path: 'tests/test_misc.py',
                    oldText: '    def test_types_import(self):\n',
                    newText: `${BOM_TEST}    def test_types_import(self):\n`,
                  },
                },
              ],
            },
            { text: 'Running it.', toolCalls: [{ tool: 'run_command', input: { command: RED } }] },
            {
              text: 'Red. load() decodes without skipping the BOM.',
              toolCalls: [
                {
                  tool: 'edit_file',
                  input: {
                    path: 'src/tomli/_parser.py',
                    oldText: '    """Parse TOML from a binary file object."""\n',
                    newText: '    """Parse TOML from a binary file object (a UTF-8 BOM is skipped)."""\n',
                  },
                },
                {
                  tool: 'edit_file',
                  input: {
                    path: 'src/tomli/_parser.py',
                    oldText: '        s = b.decode()\n',
                    newText: '        s = b.decode("utf-8-sig")\n',
                  },
                },
              ],
            },
            {
              text: 'Green?',
              toolCalls: [
                { tool: 'run_command', input: { command: UNITTEST } },
                { tool: 'run_command', input: { command: 'git diff' } },
                { tool: 'run_command', input: { command: 'git status' } },
              ],
            },
            {
              text: 'load() now skips a UTF-8 BOM (src/tomli/_parser.py); regression test tests/test_misc.py::test_load_skips_utf8_bom; 17 tests pass.',
            },
          ],
        },
        {
          prompt: 'tomli.load fails on files saved with a BOM. Fix it with a regression test and make sure the tests pass.',
          allow: ALLOW,
          env: ENV,
        },
      );

      expect.soft(outputOf(session.events, RED), 'the regression test ran red').toMatch(/FAILED \((failures|errors)=1\)/);
      expect.soft(outputOf(session.events, UNITTEST), 'the suite ran green in the run').toMatch(/Ran 17 tests[\s\S]*OK/);
      expect.soft(outputOf(session.events, 'git diff'), 'git diff in the run').toContain('+import io');
      expect
        .soft(git(repo.root, 'status', '--porcelain').split('\n').filter(Boolean).sort())
        .toEqual([' M src/tomli/_parser.py', ' M tests/test_misc.py']);
      await expectFinishedWell(repo.root, session, 17);
    } finally {
      await repo.dispose();
    }
  }, 120_000);

  it('a Claude Code reviewer works in the background while the supervisor runs the suite', async () => {
    const repo = await checkout();
    try {
      const session = await runSession(
        cli.path,
        repo.root,
        {
          supervisor: [
            {
              text: 'Review in the background; the suite meanwhile.',
              toolCalls: [
                {
                  tool: 'delegate_task',
                  input: {
                    agents: ['code-reviewer'],
                    background: true,
                    task: 'Review src/tomli/_parser.py for inputs that could crash or hang the parser. Report findings with file and line.',
                  },
                },
                // The runner alone, no pipe: what the sandbox makes of a real test runner (tempfile included).
                { tool: 'run_command', input: { command: 'python3 -m unittest' } },
              ],
            },
            {
              text: 'Waiting for the reviewer.',
              toolCalls: [{ tool: 'background_runs', input: { action: 'wait', runIds: [fromResult('delegate_task', '0.runId')] } }],
            },
            { text: 'The suite passes and the review is in.' },
          ],
          'code-reviewer': [
            {
              text: 'Reading the parser and its limits.',
              toolCalls: [
                { tool: 'read_file', input: { path: 'src/tomli/_parser.py', startLine: 1, endLine: 80 } },
                { tool: 'search_text', input: { pattern: 'MAX_INLINE_NESTING|RecursionError', glob: 'src/**/*.py' } },
                { tool: 'find_files', input: { pattern: 'tests/**/*.py' } },
              ],
            },
            {
              text: 'What the tests cover here.',
              toolCalls: [
                { tool: 'run_command', input: { command: 'git log --oneline -n 5' } },
                { tool: 'run_command', input: { command: 'wc -l src/tomli/_parser.py | head' } },
              ],
            },
            { text: 'No crash or hang found: nesting is bounded (MAX_INLINE_NESTING) and covered by tests/test_misc.py.' },
          ],
        },
        { prompt: 'Run the code reviewer in the background while you check the suite.', allow: ALLOW, env: ENV },
      );

      expect.soft(outputOf(session.events, 'git log --oneline -n 5'), 'git log in the run').toContain('agent files');
      expect.soft(git(repo.root, 'status', '--porcelain')).toBe('');
      await expectFinishedWell(repo.root, session, 16);
    } finally {
      await repo.dispose();
    }
  }, 120_000);
});
