import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadWorkspaceProfiles } from '../../../../src/core/config/profiles/workspaceProfiles';

/**
 * Issue 40 item 7 (with skills and prompt files, which already had these guards): an agent file of
 * a hostile repository that is a link out of the workspace, not a file at all, or huge. Skills,
 * prompt files and AGENTS.md leave such a file out with a warning; agent files must too.
 */

let base: string;
let root: string;
let home: string;
beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'agent-file-links-')));
  root = join(base, 'ws');
  home = join(base, 'home');
  await mkdir(join(root, '.claude', 'agents'), { recursive: true });
  await mkdir(join(root, '.github', 'agents'), { recursive: true });
  await mkdir(home);
});
afterEach(() => rm(base, { recursive: true, force: true }));

const load = () => loadWorkspaceProfiles({ root, home, trusted: true });
const said = (set: ReturnType<typeof load>, file: string) =>
  set.problems
    .filter((p) => p.path?.endsWith(file))
    .map((p) => p.message)
    .join(' | ');

describe('an agent file that is not an ordinary file of the workspace', () => {
  it("a link to a file outside the workspace is left out: its text never joins an agent's prompt", async () => {
    await mkdir(join(base, 'elsewhere'));
    await writeFile(join(base, 'elsewhere', 'notes.md'), '---\nname: leak\ndescription: Leaks\n---\nPRIVATE NOTES OF THE USER\n');
    await symlink(join(base, 'elsewhere', 'notes.md'), join(root, '.claude', 'agents', 'leak.md'));
    const set = load();
    expect([...set.profiles.values()].some((p) => p.instructions.includes('PRIVATE NOTES'))).toBe(false);
    expect(said(set, 'leak.md')).toContain('outside the workspace');
  });

  it('a named pipe is never opened (reading it would hold the loader until something writes)', async () => {
    const fifo = join(root, '.claude', 'agents', 'pipe.md');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    // Opening the pipe for writing finishes only when a reader opens it: the marker says one did.
    const writer = spawn('sh', ['-c', `exec 3>"${fifo}" && echo opened > "${join(base, 'marker')}"`], { stdio: 'ignore' });
    try {
      const set = load();
      expect(existsSync(join(base, 'marker'))).toBe(false);
      expect(said(set, 'pipe.md')).toContain('not a regular file');
    } finally {
      writer.kill('SIGKILL');
    }
  });

  it('a huge one is left out with a warning, not read whole', async () => {
    await writeFile(join(root, '.github', 'agents', 'huge.agent.md'), `---\ndescription: Huge\n---\n${'x'.repeat(600 * 1024)}\n`);
    const set = load();
    expect([...set.profiles.keys()]).not.toContain('huge');
    expect(said(set, 'huge.agent.md')).toMatch(/KB/);
  });
});

describe("a repository's .mcp.json that is not an ordinary file (issue 40 item 7; worked: fixed)", () => {
  it('a named pipe is never opened, and the problem is said', async () => {
    const { declareMcpServers } = await import('../../../../src/core/config/mcp/mcpDeclarations');
    const fifo = join(root, '.mcp.json');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const writer = spawn('sh', ['-c', `exec 3>"${fifo}" && echo opened > "${join(base, 'marker')}"`], { stdio: 'ignore' });
    try {
      const declared = declareMcpServers({ root, trusted: true });
      expect(existsSync(join(base, 'marker'))).toBe(false);
      expect(declared.problems.map((p) => `${p.source} ${p.message}`)).toContain(
        '.mcp.json is not a regular file (a pipe, a device or a folder), so none of its servers is used',
      );
    } finally {
      writer.kill('SIGKILL');
    }
  });
});
