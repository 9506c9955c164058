import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { addNodeModules, git, installDefuOnce, readText, removeDefuInstall, unpackRepo, writeFiles } from './fieldWorkspace';
import { failedCalls, fromResult, missingEdits, outputOf, runSession, topStatus, type Session } from './fieldSession';

// Issue 39's proof on unjs/defu (TypeScript, vitest): the work a capable model does on a real
// repository, replayed through the real CLI, must leave the repository's own tests green and every
// edit it reported on disk. The agent files are written as users write them.
const execAsync = promisify(execFile);
const VITEST = 'npx vitest run 2>&1 | tail -n 40';
const ALLOW = ['npx vitest'];

const BUG_FIXER = `---
name: bug-fixer
description: Audits code for real bugs and fixes them with a regression test. Use for "find and fix" tasks.
tools: Read, Edit, Write, Bash, Grep, Glob
model: inherit
---
You are a careful engineer. Read the code, find a real bug, write a failing regression test first and
run it red, fix the code, then run the whole suite green. Batch independent reads and edits in one step.
`;

const SECURITY_REVIEWER = `---
description: Reviews code for security problems (prototype pollution, injection) and adds regression tests for what must stay safe.
tools: ['codebase', 'edit/editFiles', 'search', 'runCommands']
---
# Security reviewer
Review the code you are pointed at for security problems. Confirm with the user before large changes.
Add a regression test for each property that must stay safe, and run it.
`;

const TEST_ANCHOR = '  it("should copy only missing properties defaults", () => {\n';
const SYMBOL_TEST = `  it("keeps the symbol keys of the object", () => {
    const result = defu({ [marker]: "mine" }, { a: 1 });
    expect(result[marker]).toBe("mine");
  });

`;
const POLLUTION_TEST = `  it("does not pollute Object.prototype through a __proto__ key", () => {
    const result = defu(JSON.parse('{"__proto__": {"polluted": true}}'), { a: 1 });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(result).toEqual({ a: 1 });
  });

`;

const cli = { path: inject('fieldCli') };
beforeAll(() => installDefuOnce(), 240_000);
afterAll(() => removeDefuInstall());

async function checkout(agentFiles: Record<string, string>) {
  const repo = await unpackRepo('defu-6.1.7.tar.gz', 'defu');
  await writeFiles(repo.root, agentFiles);
  git(repo.root, 'add', '-A');
  git(repo.root, '-c', 'user.name=Field Test', '-c', 'user.email=field@example.invalid', 'commit', '-qm', 'agent files');
  await addNodeModules(repo.root);
  return repo;
}

/** What every scenario ends with: the run ok, nothing refused, every reported edit on disk, the suite green run directly. */
async function expectFinishedWell(root: string, session: Session, passing: number): Promise<void> {
  expect.soft(failedCalls(session.events), 'tool calls that were refused or failed').toEqual([]);
  expect.soft(await missingEdits(root, session.events), 'reported edits missing on disk').toEqual([]);
  expect.soft(topStatus(session.events), session.result.stderr).toBe('ok');
  expect.soft(session.result.code, session.result.stderr).toBe(0);
  const direct = await execAsync('npx', ['vitest', 'run'], { cwd: root, env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' } }).then(
    (r) => `${r.stdout}${r.stderr}`,
    (e: { stdout: string; stderr: string }) => `FAILED\n${e.stdout}${e.stderr}`,
  );
  expect(direct).not.toMatch(/FAILED|\bfailed\b/);
  expect(direct).toMatch(new RegExp(`Tests\\s+(\\S+\\s+)?${passing} passed`));
}

describe('field: unjs/defu', () => {
  it('a Claude Code agent audits, runs a regression test red, fixes the bug and runs the suite green', async () => {
    const repo = await checkout({ '.claude/agents/bug-fixer.md': BUG_FIXER });
    try {
      const session = await runSession(
        cli.path,
        repo.root,
        {
          supervisor: [
            {
              text: 'Delegating the audit.',
              toolCalls: [
                {
                  tool: 'delegate_task',
                  input: {
                    agents: ['bug-fixer'],
                    task: 'Audit src/ for bugs, fix what you find with a regression test, and make sure the tests pass.',
                  },
                },
              ],
            },
            { text: 'The bug-fixer fixed dropped symbol keys with a regression test; the suite passes.' },
          ],
          'bug-fixer': [
            {
              text: 'Reading the sources and tests.',
              toolCalls: [
                { tool: 'read_file', input: { path: 'src/defu.ts' } },
                { tool: 'read_file', input: { path: 'src/_utils.ts' } },
                { tool: 'read_file', input: { path: 'test/defu.test.ts' } },
                { tool: 'search_text', input: { pattern: 'Object\\.keys', glob: 'src/**/*.ts' } },
              ],
            },
            { text: 'The suite first.', toolCalls: [{ tool: 'run_command', input: { command: VITEST } }] },
            {
              text: 'Object.keys skips symbol keys of the object: a regression test first.',
              toolCalls: [
                {
                  tool: 'edit_file',
                  input: {
                    path: 'test/defu.test.ts',
                    oldText: 'const nonObject = [null, undefined, [], false, true, 123];\n',
                    newText: 'const nonObject = [null, undefined, [], false, true, 123];\nconst marker = Symbol("marker");\n',
                  },
                },
                { tool: 'edit_file', input: { path: 'test/defu.test.ts', oldText: TEST_ANCHOR, newText: SYMBOL_TEST + TEST_ANCHOR } },
              ],
            },
            {
              text: 'Red?',
              toolCalls: [{ tool: 'run_command', input: { command: 'npx vitest run test/defu.test.ts 2>&1 | tail -n 40' } }],
            },
            {
              text: 'Red. The fix: own enumerable keys, symbols included.',
              toolCalls: [
                {
                  tool: 'edit_file',
                  input: {
                    path: 'src/defu.ts',
                    oldText: '  for (const key of Object.keys(baseObject as Record<string, any>)) {',
                    newText: '  for (const key of ownKeys(baseObject as object)) {',
                  },
                },
                {
                  tool: 'edit_file',
                  input: {
                    path: 'src/defu.ts',
                    oldText: '    const value = (baseObject as Record<string, any>)[key];',
                    newText: '    const value = (baseObject as Record<PropertyKey, any>)[key];',
                  },
                },
                {
                  tool: 'edit_file',
                  input: {
                    path: 'src/defu.ts',
                    oldText: '// Create defu wrapper with optional merger and multi arg support\n',
                    newText:
                      '// Own enumerable keys, symbols included (Object.keys leaves symbols out)\nfunction ownKeys(object: object): (string | symbol)[] {\n  return [...Object.keys(object), ...Object.getOwnPropertySymbols(object).filter((s) => Object.prototype.propertyIsEnumerable.call(object, s))];\n}\n\n// Create defu wrapper with optional merger and multi arg support\n',
                  },
                },
              ],
            },
            {
              text: 'Green, and what changed.',
              toolCalls: [
                { tool: 'run_command', input: { command: VITEST } },
                { tool: 'run_command', input: { command: 'git diff' } },
                { tool: 'run_command', input: { command: 'git status' } },
              ],
            },
            {
              text: 'Fixed: defu dropped symbol keys of the object (Object.keys). Regression test added in test/defu.test.ts; all tests pass.',
            },
          ],
        },
        { prompt: 'Audit this and fix what you find with a regression test, and make sure the tests pass.', allow: ALLOW },
      );

      expect
        .soft(outputOf(session.events, 'npx vitest run test/defu.test.ts 2>&1 | tail -n 40'), 'the regression test ran red')
        .toMatch(/1 failed/);
      expect.soft(outputOf(session.events, VITEST), 'the suite ran green in the run').toMatch(/24 passed/);
      expect.soft(outputOf(session.events, 'git diff'), 'git diff in the run').toContain('+const marker = Symbol("marker");');
      expect
        .soft(git(repo.root, 'status', '--porcelain').split('\n').filter(Boolean).sort())
        .toEqual([' M src/defu.ts', ' M test/defu.test.ts']);
      expect
        .soft((await readText(repo.root, 'src/defu.ts')).match(/ownKeys/g), 'the three edits of src/defu.ts in one step')
        .toHaveLength(2);
      await expectFinishedWell(repo.root, session, 24);
    } finally {
      await repo.dispose();
    }
  }, 120_000);

  it('a Copilot security reviewer works in the background while the supervisor runs the suite', async () => {
    const repo = await checkout({ '.github/agents/security-reviewer.agent.md': SECURITY_REVIEWER });
    try {
      const session = await runSession(
        cli.path,
        repo.root,
        {
          supervisor: [
            {
              text: 'The reviewer starts in the background; I check the suite meanwhile.',
              toolCalls: [
                {
                  tool: 'delegate_task',
                  input: {
                    agents: ['security-reviewer'],
                    background: true,
                    task: 'Review src/defu.ts for prototype pollution and add a regression test for what must stay safe; run it.',
                  },
                },
                // The runner alone, no pipe: what the sandbox makes of a real test runner.
                { tool: 'run_command', input: { command: 'npx vitest run' } },
              ],
            },
            {
              text: 'Waiting for the review.',
              toolCalls: [{ tool: 'background_runs', input: { action: 'wait', runIds: [fromResult('delegate_task', '0.runId')] } }],
            },
            {
              text: 'What changed, and the suite once more.',
              toolCalls: [
                { tool: 'run_command', input: { command: 'git diff --stat' } },
                { tool: 'run_command', input: { command: 'git status --short' } },
                { tool: 'run_command', input: { command: VITEST } },
              ],
            },
            { text: 'The review found defu safe against __proto__ keys and added a regression test; the suite passes.' },
          ],
          'security-reviewer': [
            {
              text: 'Reading the merge and where it guards keys.',
              toolCalls: [
                { tool: 'read_file', input: { path: 'src/defu.ts' } },
                { tool: 'read_file', input: { path: 'test/defu.test.ts' } },
                { tool: 'search_text', input: { pattern: '__proto__|constructor', glob: 'src/**' } },
              ],
            },
            {
              text: 'Guarded; a regression test keeps it so.',
              toolCalls: [
                { tool: 'edit_file', input: { path: 'test/defu.test.ts', oldText: TEST_ANCHOR, newText: POLLUTION_TEST + TEST_ANCHOR } },
              ],
            },
            {
              text: 'Running it.',
              toolCalls: [{ tool: 'run_command', input: { command: 'npx vitest run test/defu.test.ts 2>&1 | tail -n 40' } }],
            },
            { text: 'No prototype pollution: __proto__ and constructor keys are skipped (src/defu.ts). Regression test added; it passes.' },
          ],
        },
        { prompt: 'Run the security reviewer in the background while you check the suite.', allow: ALLOW },
      );

      expect.soft(outputOf(session.events, 'git status --short'), 'git status in the run').toContain('M test/defu.test.ts');
      expect.soft(git(repo.root, 'status', '--porcelain').split('\n').filter(Boolean)).toEqual([' M test/defu.test.ts']);
      await expectFinishedWell(repo.root, session, 24);
    } finally {
      await repo.dispose();
    }
  }, 120_000);
});
