import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { revertRun } from '../../../../src/core/changes/attribution/revertRun';
import { nodeWorkspace } from '../../../../src/core/engine/nodeWorkspace';
import { gitWorld, plainWorld } from '../changes/gitWorld';
import { runCommands } from './sandboxHarness';
import { join } from 'node:path';

/**
 * The sandbox's placeholders (empty files bubblewrap mounts over where a protected path is missing:
 * `.env`, `.mcp.json`, and, where the process's folder is the workspace as in the CLI, `.bashrc`,
 * `.gitconfig`…) are no one's change: only what a command really changed is recorded, and a revert
 * has nothing to skip. With the real sandbox.
 */

vi.setConfig({ testTimeout: 120_000 });

let cleanup: (() => Promise<void>) | undefined;
const cwd = process.cwd();
afterEach(async () => {
  process.chdir(cwd);
  await cleanup?.();
  cleanup = undefined;
});

describe('a sandboxed command records only its real changes', () => {
  for (const kind of ['a repository', 'a plain folder'] as const) {
    it(`in ${kind}, with the process in the workspace (the CLI): one file made, one recorded, one reverted, none skipped`, async () => {
      const w = kind === 'a repository' ? await gitWorld({ 'a.txt': 'a\n' }) : await plainWorld({ 'a.txt': 'a\n' });
      cleanup = w.cleanup;
      // sandbox-runtime adds its own protected names (.bashrc, .gitconfig, .idea…) in the process's folder.
      process.chdir(w.root);
      const { h, outputs, changed } = await runCommands(w.root, ['echo made > made.txt && ls -a', 'echo more >> a.txt']);
      // The placeholders were there while the command ran…
      expect(outputs[0]!.output).toMatch(/^\.env$/m);
      // …and are neither recorded nor left.
      expect(changed.map((c) => c.path).sort()).toEqual(['a.txt', 'made.txt']);
      expect(existsSync(join(w.root, '.env'))).toBe(false);
      const files = h.runs()[0]!.changes!.files;
      const reverted = await revertRun({ workspace: nodeWorkspace({ root: w.root }), snapshots: h.engine.changes.snapshots, files });
      expect(reverted).toEqual({ reverted: expect.arrayContaining(['a.txt', 'made.txt']), skipped: [] });
      expect(existsSync(join(w.root, 'made.txt'))).toBe(false);
      expect(await w.read('a.txt')).toBe('a\n');
    });
  }
});
