import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, realpath, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A real git repository in a temp folder, with `files` committed on main. */
export async function gitWorld(files: Record<string, string> = {}) {
  const base = await realpath(await mkdtemp(join(tmpdir(), 'subagents-changes-')));
  const root = join(base, 'ws');
  await mkdir(root);
  const git = (...args: string[]) =>
    execFileSync('git', args, {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
    });
  git('init', '-q', '-b', 'main');
  git('config', 'user.email', 'test@example.com');
  git('config', 'user.name', 'Test');
  git('config', 'commit.gpgsign', 'false');
  const put = async (rel: string, content: string) => {
    await mkdir(dirname(join(root, rel)), { recursive: true });
    await writeFile(join(root, rel), content);
  };
  for (const [rel, content] of Object.entries(files)) await put(rel, content);
  await datedBefore(root, files);
  if (Object.keys(files).length) {
    git('add', '-A');
    git('commit', '-q', '-m', 'start');
  }
  const read = (rel: string) => readFile(join(root, rel), 'utf8');
  return { base, root, git, put, read, cleanup: () => rm(base, { recursive: true, force: true }) };
}

/** A plain folder, not a repository. */
export async function plainWorld(files: Record<string, string> = {}) {
  const base = await realpath(await mkdtemp(join(tmpdir(), 'subagents-changes-')));
  const root = join(base, 'ws');
  await mkdir(root);
  const put = async (rel: string, content: string) => {
    await mkdir(dirname(join(root, rel)), { recursive: true });
    await writeFile(join(root, rel), content);
  };
  for (const [rel, content] of Object.entries(files)) await put(rel, content);
  await datedBefore(root, files);
  await datedBefore(root, files);
  const read = (rel: string) => readFile(join(root, rel), 'utf8');
  return { base, root, put, read, cleanup: () => rm(base, { recursive: true, force: true }) };
}

/**
 * The world's first files were there well before any run: dated a minute back, since the conflict
 * guard refuses a never-read file written as a run starts (its 20 ms margin).
 */
async function datedBefore(root: string, files: Record<string, string>): Promise<void> {
  const then = new Date(Date.now() - 60_000);
  for (const rel of Object.keys(files)) await utimes(join(root, rel), then, then);
}
