import { childProcess } from '../nodeAdapters/childProcess';
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
 */
export function runGit(cwd: string, args: readonly string[], options: GitOptions = {}): Promise<GitResult> {
  const base: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !REPOSITORY_VARIABLES.includes(k)) base[k] = v;
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
    const child = childProcess().spawn('git', args, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true });
    const out: Buffer[] = [];
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', (error: NodeJS.ErrnoException) => reject(error.code === 'ENOENT' ? new Error('git is not installed (or not on PATH)') : error));
    child.on('close', (code) => resolve({ code, stdout: Buffer.concat(out), stderr: stderr.trim() }));
    child.stdin.on('error', () => {}); // git may exit before it reads all of its input
    child.stdin.end(options.input ?? '');
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
