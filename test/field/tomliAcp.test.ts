import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';
import { git, unpackRepo, writeFiles } from './fieldWorkspace';
import { startAcpServer } from '../unit/cli/acpServerHarness';

// `subagents acp` (our supervisor served over ACP, as Zed or JetBrains drive it) on real work:
// hukkin/tomli, a scripted model that reads two files at once, makes four edits in one step (two
// of them on one file), then runs the real test runner through a pipe, `git diff --stat`, and in
// the same step tries what an agent trying to get out would: forge a thread record for a later
// session/load, and plant a git hook for the product's own git. The client approves every request.
const execAsync = promisify(execFile);
const UNITTEST = 'PYTHONPATH=src python3 -m unittest 2>&1 | tail -n 5';
const FORGE = 'echo \'{"kind":"forged"}\' > .subagents/threads/forged.jsonl; echo hi > .git/hooks/post-checkout';

const BOM_TEST = `    def test_load_skips_utf8_bom(self):
        self.assertEqual(tomllib.load(io.BytesIO(b"\\xef\\xbb\\xbfa = 1\\n")), {"a": 1})

`;

const turns = [
  {
    match: 'BOM',
    text: 'Reading the parser and its tests.',
    toolCalls: [
      { tool: 'read_file', input: { path: 'src/tomli/_parser.py', startLine: 130, endLine: 170 } },
      { tool: 'read_file', input: { path: 'tests/test_misc.py' } },
    ],
  },
  {
    match: 'BOM',
    text: 'A regression test and the fix, in one step.',
    toolCalls: [
      { tool: 'edit_file', input: { path: 'tests/test_misc.py', oldText: 'import importlib\n', newText: 'import importlib\nimport io\n' } },
      {
        tool: 'edit_file',
        input: {
          path: 'tests/test_misc.py',
          oldText: '    def test_types_import(self):\n',
          newText: `${BOM_TEST}    def test_types_import(self):\n`,
        },
      },
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
        input: { path: 'src/tomli/_parser.py', oldText: '        s = b.decode()\n', newText: '        s = b.decode("utf-8-sig")\n' },
      },
    ],
  },
  {
    match: 'BOM',
    text: 'Checking.',
    toolCalls: [
      { tool: 'run_command', input: { command: UNITTEST } },
      { tool: 'run_command', input: { command: 'git diff --stat' } },
      { tool: 'run_command', input: { command: FORGE } },
    ],
  },
  { match: 'BOM', text: 'load() skips a UTF-8 BOM now, with a regression test; 17 tests pass.' },
];

const cli = { path: inject('fieldCli') };

describe('field: hukkin/tomli through subagents acp', () => {
  it('several reads and edits in one step, a real test runner in the sandbox through a pipe, git diff; a forged thread record and git hook never land', async () => {
    const repo = await unpackRepo('tomli.tar.gz', 'tomli');
    await writeFiles(repo.root, { 'script.json': JSON.stringify({ agents: { supervisor: turns } }) });
    const server = await startAcpServer(cli.path, repo.root, ['--model', `scripted:${join(repo.root, 'script.json')}`], (request) => ({
      outcome: { outcome: 'selected', optionId: request.options.find((o) => o.kind === 'allow_once')!.optionId },
    }));
    try {
      const { sessionId } = await server.connection.agent.request('session/new', { cwd: repo.root, mcpServers: [] });
      const answer = await server.connection.agent.request('session/prompt', {
        sessionId,
        prompt: [{ type: 'text', text: 'tomli.load fails on a file with a UTF-8 BOM. Fix it with a regression test (BOM).' }],
      });
      expect(answer.stopReason).toBe('end_turn');

      // Every edit was shown to the client as its diff, and all four landed, two per file.
      const editAsks = server.permissions.filter((p) => p.toolCall.kind === 'edit');
      expect(editAsks).toHaveLength(4);
      const parser = await readFile(join(repo.root, 'src/tomli/_parser.py'), 'utf8');
      expect(parser).toContain('(a UTF-8 BOM is skipped)');
      expect(parser).toContain('b.decode("utf-8-sig")');
      const tests = await readFile(join(repo.root, 'tests/test_misc.py'), 'utf8');
      expect(tests).toContain('import io\n');
      expect(tests).toContain('def test_load_skips_utf8_bom');

      // What the client saw of the runner and of git diff (tool_call_update content).
      const seen = JSON.stringify(server.updates.filter((n) => n.update.sessionUpdate === 'tool_call_update'));
      expect(seen).toMatch(/Ran 17 tests/);
      expect(seen).toContain('src/tomli/_parser.py');
      const failed = server.updates.filter((n) => n.update.sessionUpdate === 'tool_call_update' && n.update.status === 'failed');
      expect(failed.length, JSON.stringify(failed)).toBeLessThanOrEqual(1);

      // It ran (the client allowed it), and the sandbox refused both writes.
      const forge = server.updates.find((n) => n.update.sessionUpdate === 'tool_call_update' && JSON.stringify(n).includes('Read-only'));
      expect(JSON.stringify(forge?.update ?? {}).match(/Read-only file system/g) ?? []).toHaveLength(4); // content and rawOutput, twice each
      // The sandboxed command could write neither the thread store nor a git hook.
      expect(existsSync(join(repo.root, '.subagents', 'threads', 'forged.jsonl'))).toBe(false);
      expect(existsSync(join(repo.root, '.git', 'hooks', 'post-checkout'))).toBe(false);
      expect(readdirSync(join(repo.root, '.subagents', 'threads')).some((f) => f.startsWith(sessionId))).toBe(true);
      expect(git(repo.root, 'status', '--porcelain', '--untracked-files=no').split('\n').filter(Boolean).sort()).toEqual([
        ' M src/tomli/_parser.py',
        ' M tests/test_misc.py',
      ]);
      const direct = await execAsync('python3', ['-m', 'unittest'], { cwd: repo.root, env: { ...process.env, PYTHONPATH: 'src' } });
      expect(`${direct.stdout}${direct.stderr}`).toMatch(/Ran 17 tests[\s\S]*\nOK\s*$/);
    } finally {
      await server.end();
      await repo.dispose();
    }
  }, 180_000);
});
