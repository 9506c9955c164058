import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { gitWorld, plainWorld } from '../changes/gitWorld';
import { nodeWrite, runCommands } from './sandboxHarness';

/**
 * What the product later acts on outside the sandbox, seen from inside it (issue 40, item 1): `.git`
 * is writable only where git's own commands write, a `.git` that did not exist cannot be made, and
 * the thread store and the worktrees root are read-only. With the real sandbox and real git.
 */

vi.setConfig({ testTimeout: 120_000 });

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

/** Each refused write prints its error code; a write that lands prints WROTE. */
const refused = /^E[A-Z]+\n$/;

describe('.git in the sandbox', () => {
  it('git add, commit and stash work; config, hooks, info and the guarded names cannot be written or made', async () => {
    const w = await gitWorld({ 'a.txt': 'a\n' });
    cleanup = w.cleanup;
    const config = await readFile(join(w.root, '.git', 'config'), 'utf8');
    const targets = [
      '.git/config',
      '.git/hooks/pre-commit',
      '.git/info/attributes',
      '.git/info/exclude',
      '.git/objects/info/alternates',
      '.git/objects/info/http-alternates',
      '.git/modules/x',
      '.git/worktrees/x',
    ];
    const { outputs } = await runCommands(w.root, [
      'echo b > b.txt && git add b.txt && git commit -qm "in the sandbox" && echo c >> a.txt && git stash -q && git stash pop -q && git log --format=%s -1 && cat a.txt',
      ...targets.map((t) => nodeWrite(t)),
    ]);
    expect(outputs[0]).toMatchObject({ exitCode: 0, output: 'in the sandbox\na\nc\n' });
    targets.forEach((t, i) => expect(outputs[i + 1]!.output, t).toMatch(refused));
    expect(await readFile(join(w.root, '.git', 'config'), 'utf8')).toBe(config);
    for (const made of ['.git/objects/info/alternates', '.git/modules', '.git/hooks/pre-commit', '.git/info/attributes'])
      expect(existsSync(join(w.root, made)), made).toBe(false);
    expect(w.git('log', '--format=%s', '-1').trim()).toBe('in the sandbox');
  });

  it('attack: .git cannot be renamed away and replaced, and a link from .git/refs to .git/config does not write it', async () => {
    const w = await gitWorld({ 'a.txt': 'a\n' });
    cleanup = w.cleanup;
    const config = await readFile(join(w.root, '.git', 'config'), 'utf8');
    await writeFile(
      join(w.root, 'swap.js'),
      "const fs = require('fs'); try { fs.renameSync('.git', 'old'); fs.mkdirSync('.git'); console.log('SWAPPED') } catch (e) { console.log(e.code) }",
    );
    await writeFile(
      join(w.root, 'link.js'),
      "const fs = require('fs'); try { fs.symlinkSync('../config', '.git/refs/evil'); fs.writeFileSync('.git/refs/evil', '[core]\\n\\tfsmonitor = touch /tmp/x\\n'); console.log('WROTE') } catch (e) { console.log(e.code) }",
    );
    await writeFile(
      join(w.root, 'hooks.js'),
      "const fs = require('fs'); try { fs.renameSync('.git/hooks', '.git/hooks-old'); fs.mkdirSync('.git/hooks'); console.log('SWAPPED') } catch (e) { console.log(e.code) }",
    );
    const { outputs } = await runCommands(w.root, ['node swap.js', 'node link.js', 'node hooks.js']);
    for (const o of outputs) expect(o.output).toMatch(refused);
    expect(await readFile(join(w.root, '.git', 'config'), 'utf8')).toBe(config);
    expect(existsSync(join(w.root, 'old'))).toBe(false);
  });

  it('attack: a hard link to .git/config (beside it, in the workspace, in the temp folder) cannot be made to write it', async () => {
    const w = await gitWorld({ 'a.txt': 'a\n' });
    cleanup = w.cleanup;
    const config = await readFile(join(w.root, '.git', 'config'), 'utf8');
    await writeFile(
      join(w.root, 'hardlink.js'),
      "const fs = require('fs'); for (const to of ['.git/cfg', 'cfg', process.env.TMPDIR + '/cfg']) { try { fs.linkSync('.git/config', to); fs.appendFileSync(to, '[core]\\n\\tfsmonitor = touch /tmp/x\\n'); console.log('WROTE') } catch (e) { console.log(e.code) } }",
    );
    const { outputs } = await runCommands(w.root, ['node hardlink.js']);
    expect(outputs[0]!.output).toMatch(/^(E[A-Z]+\n){3}$/);
    expect(await readFile(join(w.root, '.git', 'config'), 'utf8')).toBe(config);
  });

  it('a workspace that is no repository cannot become one: no git init, no .git, and nothing left behind', async () => {
    const w = await plainWorld({ 'a.txt': 'a\n' });
    cleanup = w.cleanup;
    await writeFile(
      join(w.root, 'mkdir.js'),
      "try { require('fs').mkdirSync('.git/hooks', { recursive: true }); console.log('MADE') } catch (e) { console.log(e.code) }",
    );
    const { outputs } = await runCommands(w.root, [
      'git init -q 2>&1; echo "init $?"',
      nodeWrite('.git/config'),
      'node mkdir.js',
      'git status 2>&1 | head -1',
    ]);
    expect(outputs[0]!.output).toMatch(/init [1-9]/);
    expect(outputs[1]!.output).toMatch(refused);
    expect(outputs[2]!.output).toMatch(refused);
    expect(outputs[3]!.output).toMatch(/not a git repository/);
    expect(existsSync(join(w.root, '.git'))).toBe(false);
  });
});

describe("the engine's folders in the sandbox", () => {
  it('the thread store in the workspace (the CLI default) and the worktrees root in it are read-only; a missing store cannot be made', async () => {
    const w = await gitWorld({ 'a.txt': 'a\n' });
    cleanup = w.cleanup;
    const store = join(w.root, '.subagents');
    await mkdir(join(store, 'worktrees'), { recursive: true });
    await writeFile(join(store, 'worktrees', 'run-1.json'), '{}\n');
    const forged = [
      '.subagents/worktrees/run-2.json',
      '.subagents/worktrees/run-1.json',
      '.subagents/index.json',
      '.subagents/threads/x.jsonl',
    ];
    // Attack: moved away and made again, it would be the command's.
    await writeFile(
      join(w.root, 'swap.js'),
      "try { require('fs').renameSync('.subagents', 'old'); console.log('SWAPPED') } catch (e) { console.log(e.code) }",
    );
    const { outputs } = await runCommands(w.root, [...forged.map((t) => nodeWrite(t)), 'node swap.js', nodeWrite('ok.txt')], {
      untracked: [store],
    });
    forged.forEach((t, i) => expect(outputs[i]!.output, t).toMatch(refused));
    expect(outputs[forged.length]!.output).toMatch(refused);
    expect(outputs[forged.length + 1]!.output).toBe('WROTE\n');
    expect(await readFile(join(store, 'worktrees', 'run-1.json'), 'utf8')).toBe('{}\n');

    const missing = join(w.root, 'elsewhere-store');
    const { outputs: made } = await runCommands(
      w.root,
      [nodeWrite('elsewhere-store/index.json'), 'mkdir -p elsewhere-store/x 2>/dev/null; echo "mkdir $?"'],
      { untracked: [missing] },
    );
    expect(made[0]!.output).toMatch(refused);
    expect(made[1]!.output).toMatch(/mkdir [1-9]/);
    expect(existsSync(missing)).toBe(false);
  });
});
