import { execFile, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';

/**
 * Real repositories for the field suite (issue 39, "Proof"): unpacked from the snapshots in
 * `../shared/field` (beside this repository's clone; never copied into it) into a temp folder,
 * made a git repository with one commit, with what their tests need installed.
 */
const run = promisify(execFile);

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * Where the snapshots are: `<repo root>/../shared/field`; in a git worktree, beside the main
 * clone it belongs to. A clear error when neither has them.
 */
export function fieldSnapshotsDir(): string {
  const beside = resolve(REPO_ROOT, '..', 'shared', 'field');
  if (existsSync(beside)) return beside;
  const looked = [beside];
  try {
    const common = execFileSync('git', ['rev-parse', '--path-format=absolute', '--git-common-dir'], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
    }).trim();
    const mainClone = resolve(dirname(common), '..', 'shared', 'field');
    if (existsSync(mainClone)) return mainClone;
    looked.push(mainClone);
  } catch {
    // Not a git checkout: only the folder beside it counts.
  }
  throw new Error(
    `The field suite needs the repository snapshots (defu-6.1.7.tar.gz, tomli.tar.gz) in ${looked.join(' or ')}: ` +
      'put a copy of shared/ beside the clone (CI does), then run the suite again.',
  );
}

export const git = (cwd: string, ...args: string[]): string => execFileSync('git', args, { cwd, encoding: 'utf8' });

/** Unpacks `<name>.tar.gz` (whose top folder is `top`) into a fresh temp folder and commits it. */
export async function unpackRepo(tarball: string, top: string): Promise<{ root: string; dispose(): Promise<void> }> {
  const parent = await mkdtemp(join(tmpdir(), `field-${top}-`));
  await run('tar', ['-xzf', join(fieldSnapshotsDir(), tarball), '-C', parent]);
  const root = join(parent, top);
  git(root, 'init', '-q', '-b', 'main');
  git(root, 'add', '-A');
  git(root, '-c', 'user.name=Field Test', '-c', 'user.email=field@example.invalid', 'commit', '-qm', 'snapshot');
  return { root, dispose: () => rm(parent, { recursive: true, force: true }) };
}

/**
 * One `npm install` for every defu scenario of a run: made once in its own folder, then copied
 * into each scenario's checkout (node_modules is in defu's .gitignore).
 */
let defuInstall: Promise<{ root: string; dispose(): Promise<void> }> | undefined;

export async function installDefuOnce(): Promise<string> {
  defuInstall ??= (async () => {
    const repo = await unpackRepo('defu-6.1.7.tar.gz', 'defu');
    await run('npm', ['install', '--ignore-scripts', '--legacy-peer-deps', '--prefer-offline', '--no-audit', '--no-fund'], {
      cwd: repo.root,
      maxBuffer: 64 * 1024 * 1024,
    });
    return repo;
  })();
  return join((await defuInstall).root, 'node_modules');
}

/** Removes the shared install (after the file's last test). */
export async function removeDefuInstall(): Promise<void> {
  const install = defuInstall;
  defuInstall = undefined;
  await (await install?.catch(() => undefined))?.dispose();
}

/** Hard links where the platform's cp makes them (fast; a write replaces a file, never the shared one's bytes), else a copy. */
export async function addNodeModules(root: string): Promise<void> {
  const from = await installDefuOnce();
  const to = join(root, 'node_modules');
  try {
    await run('cp', ['-al', from, to]);
  } catch {
    await rm(to, { recursive: true, force: true });
    await cp(from, to, { recursive: true, verbatimSymlinks: true });
  }
}

export async function writeFiles(root: string, files: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  }
}

export async function readText(root: string, path: string): Promise<string> {
  return readFile(join(root, path), 'utf8');
}
