import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { readWorkspaceSettings } from '../../../src/cli/workspaceSettings';

// Issue 40 item 7: a repository's .vscode/settings.json that is a named pipe (or a link to one, or
// to /dev/zero) would hold the CLI in a read without end. It is refused before it is opened.

let base: string;
beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'settings-kinds-')));
  await mkdir(join(base, 'ws', '.vscode'), { recursive: true });
});
afterEach(() => rm(base, { recursive: true, force: true }));

it('a named pipe as .vscode/settings.json is never opened: a clear error says what it is (worked: fixed)', async () => {
  const fifo = join(base, 'ws', '.vscode', 'settings.json');
  expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
  // Opening the pipe for writing finishes only when a reader opens it: the marker says one did.
  const writer = spawn('sh', ['-c', `exec 3>"${fifo}" && echo opened > "${join(base, 'marker')}"`], { stdio: 'ignore' });
  try {
    await expect(readWorkspaceSettings(join(base, 'ws'))).rejects.toThrow(/is not a regular file \(a pipe, a device or a folder\)/);
    expect(existsSync(join(base, 'marker'))).toBe(false);
  } finally {
    writer.kill('SIGKILL');
  }
});
