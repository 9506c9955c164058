import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { nodeWorkspace } from '../../../../src/core/engine/nodeWorkspace';
import { Worktrees } from '../../../../src/core/changes/worktrees/worktrees';
import type { RunEventOf } from '../../../../src/shared/events';
import { gitWorld } from '../changes/gitWorld';
import { agent, makeEngine } from '../engineHarness';

// A worktree run's commands in the real OS sandbox (bubblewrap): the worktree and the git paths it
// needs are writable (a commit on its branch works), the workspace and the repository's own
// config are not.
vi.setConfig({ testTimeout: 60_000 });

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

/** A node one-liner that writes `parts` joined onto `base`, spelled so the judge cannot read the path: only the sandbox stops it. */
const nodeWrite = (base: string, ...parts: string[]) =>
  `node -e "try { require('fs').writeFileSync(require('path').join(process.argv[1], ...process.argv.slice(2).map((p) => p.replace(/^_/, '.'))), 'pwned'); console.log('WROTE') } catch (e) { console.log(e.code) }" ${base} ${parts.map((p) => p.replace(/^\./, '_')).join(' ')}`;

describe('a worktree run in the OS sandbox', () => {
  it('may write its worktree and commit on its branch, not the workspace nor the repository config', async () => {
    const w = await gitWorld({ 'a.txt': 'a\n' });
    cleanup = w.cleanup;
    const identity = 'GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@example.com GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@example.com';
    const commands = [
      `echo b > b.txt && git add b.txt && ${identity} git commit -qm "from the run" && git log --format=%s -1`,
      nodeWrite(w.root, 'escape.txt'),
      nodeWrite(w.root, '.git', 'config'),
      // Attack: its own git folder's pointer at the repository (the product's git later reads it).
      "node -e \"try { require('fs').writeFileSync(process.argv[1] + '/commondir', '/tmp'); console.log('WROTE') } catch (e) { console.log(e.code) }\" \"$(git rev-parse --absolute-git-dir)\"",
    ];
    const worktrees = new Worktrees(join(w.base, 'storage', 'worktrees'));
    const h = makeEngine(
      {
        agents: {
          supervisor: [{ toolCalls: [{ tool: 'delegate_task', input: { task: 'work', agents: ['isolated'] } }] }, { text: 'done' }],
          isolated: [
            ...commands.map((command) => ({ toolCalls: [{ tool: 'run_command', input: { command, timeoutMs: 60_000 } }] })),
            { text: 'isolated done' },
          ],
        },
      },
      {
        workspace: nodeWorkspace({ root: w.root }),
        settings: { approval: 'trust', 'sandbox.mode': 'on' },
        agents: { isolated: agent('works alone', { isolation: 'worktree' }) },
        worktrees,
      },
    );
    const { threadId, done } = await h.engine.send({ prompt: 'go' });
    await done;
    await h.engine.whenQuiet(threadId);
    const outputs = h.events
      .filter((e): e is RunEventOf<'tool.finished'> => e.kind === 'tool.finished' && e.tool === 'run_command')
      .map((e) => e.output as { exitCode?: number; output?: string; error?: string });
    expect(outputs[0]).toMatchObject({ exitCode: 0, output: 'from the run\n' });
    expect(outputs[1]!.output).toMatch(/^E[A-Z]+\n$/);
    expect(outputs[2]!.output).toMatch(/^E[A-Z]+\n$/);
    expect(outputs[3]!.output).toMatch(/^E[A-Z]+\n$/);
    expect(existsSync(join(w.root, 'escape.txt'))).toBe(false);
    expect(await readFile(join(w.root, '.git', 'config'), 'utf8')).not.toContain('pwned');
    const child = h.runs().find((r) => r.agent === 'isolated')!;
    // The run's own commit is on its branch, under the end state.
    expect(w.git('log', '--format=%s', `subagents/${child.runId}`).split('\n')).toContain('from the run');
    expect((await worktrees.get(child.runId))?.files?.map((f) => f.path)).toEqual(['b.txt']);
  });
});
