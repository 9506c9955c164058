import { spawn } from 'node:child_process';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileChanges } from '../../../../src/core/changes/attribution/fileChanges';
import { MemorySnapshotStore } from '../../../../src/core/changes/attribution/snapshotStore';
import { DEFAULT_SETTINGS } from '../../../../src/core/config/settings/engineSettings';
import { nodeWorkspace } from '../../../../src/core/engine/nodeWorkspace';
import { commandLauncher } from '../../../../src/core/access/sandbox/commandLauncher';
import { createApprovalGate } from '../../../../src/core/tools/approvalGate';
import { workspaceTools } from '../../../../src/core/tools/workspaceTools';
import { makeWorld } from '../tools/toolWorld';

/**
 * The race of issue 9: a real process swaps a folder of the workspace for a symlink to a folder
 * outside, over and over, while thousands of write_file calls aim into that folder. Every write
 * is judged inside; none may land outside, whatever it reports.
 */

const WRITES = 2400;
const PARALLEL = 16;

// Swaps ws/d between the real folder and a symlink to the outside folder, with renames, until killed.
// A write that finds d missing may create a fresh folder there; the swapper moves it aside.
const SWAPPER = `
const { renameSync, symlinkSync } = require('node:fs');
const [ws, outside] = process.argv.slice(1);
const d = ws + '/d', spare = ws + '/d.real', link = ws + '/d.link';
symlinkSync(outside, link);
let n = 0;
const swap = (from, to) => { try { renameSync(from, to); } catch { try { renameSync(to, ws + '/intruder-' + n++); renameSync(from, to); } catch {} } };
process.stdout.write('ready\\n');
for (;;) { swap(d, spare); swap(link, d); swap(d, link); swap(spare, d); }
`;

let world: Awaited<ReturnType<typeof makeWorld>>;
beforeEach(async () => {
  world = await makeWorld();
});
afterEach(() => world.cleanup());

async function filesUnder(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

describe.skipIf(process.platform === 'win32')('writes land where they were judged', () => {
  it(
    'a folder swapped for a symlink to outside, thousands of times during the writes: nothing lands outside',
    { timeout: 120_000 },
    async () => {
      const outside = join(world.base, 'outside');
      await mkdir(outside);
      await mkdir(join(world.root, 'd'));
      await writeFile(join(world.root, 'd', 'seed.txt'), 'seed');
      const workspace = nodeWorkspace({ root: world.root });
      const gate = createApprovalGate({
        settings: { mode: 'trust', root: world.root, autoApproveCommands: [] },
        approver: undefined,
        emit: () => {},
        agent: 'a',
      });
      const commands = commandLauncher(world.root, { ...DEFAULT_SETTINGS, 'sandbox.mode': 'off' }, () => {});
      const files = new FileChanges(new MemorySnapshotStore()).forRun({ runId: 'r', agent: 'a', workspace, emit: () => {} });
      const writeTool = workspaceTools({ workspace, gate, agent: 'a', commands, files }).find((t) => t.name === 'write_file')!;

      const swapper = spawn(process.execPath, ['-e', SWAPPER, world.root, outside], { stdio: ['ignore', 'pipe', 'inherit'] });
      await new Promise<void>((resolve) => swapper.stdout.once('data', () => resolve()));
      const reports: unknown[] = [];
      let next = 0;
      const worker = async () => {
        while (next < WRITES) {
          const i = next++;
          const signal = new AbortController().signal;
          reports.push(
            await writeTool.execute(
              { path: `d/f${i}.txt`, content: `write ${i}` },
              { runId: 'r', threadId: 't', toolCallId: `c${i}`, signal },
            ),
          );
        }
      };
      await Promise.all(Array.from({ length: PARALLEL }, worker));
      const exited = new Promise((resolve) => swapper.once('exit', resolve));
      swapper.kill('SIGKILL');
      await exited;

      const landedOutside = await filesUnder(outside);
      const ok = reports.filter((r) => !(r && typeof r === 'object' && 'error' in r));
      expect(landedOutside, `${landedOutside.length} of ${WRITES} writes (${ok.length} reported written) landed outside`).toEqual([]);
      // Every write reported as done is really inside the workspace, with its content.
      const inside = await filesUnder(world.root);
      expect(inside.length).toBeGreaterThanOrEqual(ok.length);
      // The race was real: the writes and the swaps overlapped (some writes were refused or found d missing).
      expect(ok.length).toBeGreaterThan(0);
    },
  );
});
