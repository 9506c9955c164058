import { lstatSync, writeFileSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { removeStaleSandboxSockets } from '../../../../src/core/access/sandbox/deadProcessLeftovers';
import { leaveLeftoversOfKilledProcess } from '../../../fixtures/killedProcessLeftovers';

// sandbox-runtime names its proxy socket after the process that made it (srt-mux-<pid>-<n>.sock in
// the temp folder) and removes it only from that process's exit. A window or CLI that was killed
// leaves it; the next process that starts the sandbox removes those whose process is gone and on
// which no one listens, and nothing else.

let folder: string;
let servers: Server[];
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'dead-leftovers-'));
  servers = [];
});
afterEach(async () => {
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  await rm(folder, { recursive: true, force: true });
});

const listen = (path: string) =>
  new Promise<void>((resolve) => {
    const server = createServer().listen(path, () => resolve());
    servers.push(server);
  });

it("removes a killed process's proxy socket, and keeps one someone listens on, one of a live process and a file that is no socket", async () => {
  const killed = await leaveLeftoversOfKilledProcess(folder);
  expect(lstatSync(killed.socket).isSocket()).toBe(true);
  // Named as the dead process's, but listened on (a process of another pid namespace sharing the folder).
  await listen(join(folder, `srt-mux-${killed.pid}-1.sock`));
  // This process's own.
  await listen(join(folder, `srt-mux-${process.pid}-0.sock`));
  writeFileSync(join(folder, `srt-mux-${killed.pid}-2.sock`), 'not a socket');
  writeFileSync(join(folder, 'srt-mux-notes.txt'), '');

  expect(await removeStaleSandboxSockets(folder)).toBe(1);
  expect((await readdir(folder)).sort()).toEqual(
    [
      `srt-mux-${killed.pid}-1.sock`,
      `srt-mux-${killed.pid}-2.sock`,
      `srt-mux-${process.pid}-0.sock`,
      'srt-mux-notes.txt',
      `subagents-sandbox-git-${killed.pid}-Ab12Cd`,
    ].sort(),
  );
});

it('answers 0 for a temp folder that cannot be read', async () => {
  expect(await removeStaleSandboxSockets(join(folder, 'missing'))).toBe(0);
});
