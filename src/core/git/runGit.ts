import { launcherSpawn } from '../processLauncher/sharedLauncher';
import { withoutProductKeys } from '../sandbox/commandEnv';
import { withGitConfig, withGitHardening } from '../sandbox/gitHardening';

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
}

/** Variables that would point git at another repository, work tree or index than the one asked for. */
const REPOSITORY_VARIABLES = ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_OBJECT_DIRECTORY', 'GIT_ALTERNATE_OBJECT_DIRECTORIES', 'GIT_COMMON_DIR', 'GIT_NAMESPACE', 'GIT_CEILING_DIRECTORIES'];

/**
 * The product's own git calls (never an agent's): in `cwd`, hardened like an unasked command (no
 * hooks, no fsmonitor program, no implicit bare repository), without optional locks, so a status
 * never rewrites the index under the user's own git, with a fixed identity for the commits it makes.
 * Without the product's keys (git needs none), and started by the process launcher, as ripgrep is:
 * a fork of the extension host would cost this thread up to 20 ms each.
 */
export function runGit(cwd: string, args: readonly string[], options: GitOptions = {}): Promise<GitResult> {
  const base = withoutProductKeys(process.env);
  for (const name of REPOSITORY_VARIABLES) delete base[name];
  const env = {
    ...withGitConfig(withGitHardening(base), [['core.quotePath', 'false']]),
    GIT_OPTIONAL_LOCKS: '0',
    GIT_TERMINAL_PROMPT: '0',
    GIT_AUTHOR_NAME: 'Subagents',
    GIT_AUTHOR_EMAIL: 'subagents@localhost',
    GIT_COMMITTER_NAME: 'Subagents',
    GIT_COMMITTER_EMAIL: 'subagents@localhost',
    ...options.env,
  };
  return new Promise((resolve, reject) => {
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let code: number | null = null;
    const input = typeof options.input === 'string' ? Buffer.from(options.input) : (options.input ?? Buffer.alloc(0));
    launcherSpawn(
      { file: 'git', args, env, cwd, input },
      {
        stdout: (chunk) => out.push(chunk),
        stderr: (chunk) => err.push(chunk),
        error: (error: NodeJS.ErrnoException) => reject(error.code === 'ENOENT' ? new Error('git is not installed (or not on PATH)') : error),
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
  const result = await runGit(dir, ['rev-parse', '--show-toplevel', '--show-prefix']).catch(() => undefined);
  if (!result || result.code !== 0) return undefined;
  const [top, prefix] = result.stdout.toString('utf8').split('\n');
  return top ? { top, prefix: prefix ?? '' } : undefined;
}
