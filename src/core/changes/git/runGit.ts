import { realpath } from 'node:fs/promises';
import { dirname } from 'node:path';
import { launcherSpawn } from '../../platform/processLauncher/sharedLauncher';
import { withoutProductKeys } from '../../access/sandbox/commandEnv';
import { withGitConfig, withGitHardening } from '../../access/sandbox/gitHardening';
import { DRIVER_LISTING_ARGS, DROPPED_GIT_VARIABLES, driverOverrides, PRODUCT_GIT_ENV, PRODUCT_GIT_SETTINGS } from './productGitConfig';
import { GitDirRefused, verifiedRepository } from './verifiedRepository';

export interface GitResult {
  code: number | null;
  stdout: Buffer;
  stderr: string;
}

export interface GitOptions {
  /** Written to git's stdin, then closed. */
  input?: string | Buffer;
  /** More environment (GIT_INDEX_FILE for a temporary index). */
  env?: Record<string, string>;
  /** A command that needs no repository (merge-file in a scratch folder): none is looked for, none is used. */
  noRepository?: boolean;
}

/**
 * The product's own git calls (never an agent's), in `cwd`. The repository's config and git folder
 * are the workspace's, which a sandboxed command may have written, and this git runs outside the
 * sandbox: the git folder is verified first (verifiedRepository.ts) and given explicitly with its
 * work tree (a `core.worktree` or planted `.git` elsewhere is not followed), and every config key
 * that runs a program is overridden (productGitConfig.ts, and the hooks and fsmonitor of an
 * unasked command). Without optional locks, so a status never rewrites the index under the user's
 * own git, with a fixed identity for the commits it makes. Without the product's keys (git needs
 * none), and started by the process launcher, as ripgrep is: a fork of the extension host would
 * cost this thread up to 20 ms each. Rejects with GitDirRefused when the git folder is not one the
 * product uses.
 */
export async function runGit(cwd: string, args: readonly string[], options: GitOptions = {}): Promise<GitResult> {
  const repo = options.noRepository ? undefined : await verifiedRepository(cwd);
  const base = withoutProductKeys(process.env);
  for (const name of DROPPED_GIT_VARIABLES) delete base[name];
  // No repository: none is looked for above `cwd` either (one made there since would be unverified).
  const located: Record<string, string> = repo
    ? { GIT_DIR: repo.gitDir, GIT_WORK_TREE: repo.top }
    : { GIT_CEILING_DIRECTORIES: options.noRepository ? await realpath(cwd) : dirname(await realpath(cwd)) };
  const drivers =
    repo && mayRunDrivers(args)
      ? driverOverrides((await spawnGit(cwd, DRIVER_LISTING_ARGS, { ...base, ...located })).stdout.toString('utf8'))
      : [];
  const env = {
    ...withGitConfig(withGitHardening(base), [...PRODUCT_GIT_SETTINGS, ...drivers]),
    ...PRODUCT_GIT_ENV,
    GIT_AUTHOR_NAME: 'Subagents',
    GIT_AUTHOR_EMAIL: 'subagents@localhost',
    GIT_COMMITTER_NAME: 'Subagents',
    GIT_COMMITTER_EMAIL: 'subagents@localhost',
    ...located,
    ...options.env,
  };
  return spawnGit(cwd, withoutDiffPrograms(args), env, options.input);
}

/**
 * Subcommands (as the product calls them) that never apply a filter, diff or merge driver: they
 * read or write objects and refs only. Every other one (status, add, worktree add …) gets the
 * repository's drivers overridden by name, which costs one `git config` more.
 */
const DRIVERLESS = new Set(['rev-parse', 'cat-file', 'commit-tree', 'update-ref', 'branch', 'merge-file', 'config', 'read-tree']);

function mayRunDrivers(args: readonly string[]): boolean {
  const [sub, ...rest] = args;
  if (sub === 'cat-file') return rest.some((a) => a === '--filters' || a === '--textconv');
  // Content from stdin with no path to take attributes from: nothing to filter.
  if (sub === 'hash-object') return !rest.every((a) => a === '-w' || a === '--stdin' || a === '--no-filters');
  if (sub === 'read-tree') return rest.some((a) => a === '-u' || a === '-m');
  return sub === undefined || !DRIVERLESS.has(sub);
}

/** `diff`, `log` and `show` without an external diff program or textconv, whatever the config says. */
function withoutDiffPrograms(args: readonly string[]): readonly string[] {
  const [sub, ...rest] = args;
  return sub === 'diff' || sub === 'log' || sub === 'show' ? [sub, '--no-ext-diff', '--no-textconv', ...rest] : args;
}

function spawnGit(cwd: string, args: readonly string[], env: Record<string, string>, input?: string | Buffer): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let code: number | null = null;
    const stdin = typeof input === 'string' ? Buffer.from(input) : (input ?? Buffer.alloc(0));
    launcherSpawn(
      { file: 'git', args, env, cwd, input: stdin },
      {
        stdout: (chunk) => out.push(chunk),
        stderr: (chunk) => err.push(chunk),
        error: (error: NodeJS.ErrnoException) =>
          reject(error.code === 'ENOENT' ? new Error('git is not installed (or not on PATH)') : error),
        exit: (exitCode) => (code = exitCode),
        close: () => resolve({ code, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString().trim() }),
      },
    );
  });
}

/** runGit, rejecting with git's own message when it fails; stdout as text. */
export async function git(cwd: string, args: readonly string[], options: GitOptions = {}): Promise<string> {
  const result = await runGit(cwd, args, options);
  if (result.code !== 0) throw new Error(`git ${args[0] ?? ''} failed: ${result.stderr.split('\n').pop() || `exit code ${result.code}`}`);
  return result.stdout.toString('utf8');
}

/** The repository around `dir`: its top folder and `dir`'s place in it, or undefined when it is not in one. */
export async function repositoryOf(dir: string): Promise<{ top: string; prefix: string } | undefined> {
  // A git folder the product refuses is said, not taken for "no repository".
  const result = await runGit(dir, ['rev-parse', '--show-toplevel', '--show-prefix']).catch((error: unknown) =>
    error instanceof GitDirRefused ? Promise.reject(error) : undefined,
  );
  if (!result || result.code !== 0) return undefined;
  const [top, prefix] = result.stdout.toString('utf8').split('\n');
  return top ? { top, prefix: prefix ?? '' } : undefined;
}
