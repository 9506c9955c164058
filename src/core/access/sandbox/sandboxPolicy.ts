import { existsSync, lstatSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { protectedReason } from '../paths/protectedPaths';
import { isInside } from '../paths/workspacePath';

/** What the OS sandbox lets a command do, in sandbox-runtime's terms (absolute paths). */
export interface SandboxPolicy {
  /** Hidden: an empty folder in its place. */
  denyRead: string[];
  allowWrite: string[];
  /** Read-only inside the writable folders; one that does not exist cannot be created. */
  denyWrite: string[];
  allowedHosts: string[];
}

/**
 * The secrets in the home folder a command has no business reading: keys and tokens of ssh, cloud
 * and registry tools, and the editors' own storage (where their secret stores live).
 */
export const HOME_SECRETS = [
  '.ssh',
  '.gnupg',
  '.aws',
  '.azure',
  '.kube',
  '.docker/config.json',
  '.config/gh',
  '.config/gcloud',
  '.config/hub',
  '.netrc',
  '.git-credentials',
  '.npmrc',
  '.pypirc',
  '.gem/credentials',
  '.cargo/credentials.toml',
  '.config/Code',
  '.config/Code - Insiders',
  '.config/VSCodium',
  '.config/code-server',
  '.local/share/code-server',
  '.vscode-server',
  '.vscode-remote',
  '.cursor-server',
  'Library/Application Support/Code',
  'Library/Application Support/Code - Insiders',
  'Library/Application Support/VSCodium',
  'Library/Keychains',
];

/**
 * Protected names at the workspace root that the sandbox keeps from being created when they are
 * not there. Only dot-names: sandbox-runtime blocks a missing path by mounting over an empty file
 * it creates for the command's lifetime, which `ls` would show; non-dot names are left to the text
 * check when missing, and are read-only whenever they exist.
 */
const GUARD_WHEN_MISSING = [
  '.vscode',
  '.github',
  '.claude',
  '.devcontainer',
  '.husky',
  '.mcp.json',
  '.env',
  '.envrc',
  '.npmrc',
  '.yarnrc',
  '.yarnrc.yml',
  '.gitmodules',
];

/**
 * Inside a `.git` folder, what git's own commands write (commit, add, stash, merge, rebase, gc):
 * everything else there that exists is read-only. `.lock` files and the like are new files, which
 * the folder itself (writable) lets git make.
 */
const GIT_WRITABLE = new Set([
  'objects',
  'refs',
  'logs',
  'index',
  'HEAD',
  'ORIG_HEAD',
  'FETCH_HEAD',
  'MERGE_HEAD',
  'MERGE_MSG',
  'MERGE_MODE',
  'MERGE_RR',
  'AUTO_MERGE',
  'CHERRY_PICK_HEAD',
  'REVERT_HEAD',
  'REBASE_HEAD',
  'COMMIT_EDITMSG',
  'TAG_EDITMSG',
  'SQUASH_MSG',
  'NOTES_EDITMSG',
  'packed-refs',
  'rebase-merge',
  'rebase-apply',
  'sequencer',
  'rr-cache',
  'lost-found',
  'gc.log',
  'gc.pid',
  'shallow',
  'description',
  'lfs',
]);
const GIT_WRITABLE_PATTERN = /^(BISECT_[A-Z_]+|sharedindex\.[0-9a-f]+|.+\.lock)$/;

/**
 * What in `.git` steers git to run code or read another repository, read-only, and kept from being
 * created when missing: folders (an empty read-only folder stands in for them meanwhile, as git
 * expects a folder there) and the config (an empty read-only file). `objects/info` holds
 * `alternates` (another repository's objects); only `git gc` writes there (its commit-graph).
 * Not guarded when missing: `commondir` and `gitdir` (a stand-in there breaks git itself; the
 * product's own git must not trust them) and `config.worktree` (read only when the read-only config
 * turns it on, and a stand-in makes git warn on every command).
 */
const GIT_GUARDED_FOLDERS = ['hooks', 'info', 'modules', 'worktrees', 'branches', 'remotes', 'objects/info'];
const GIT_GUARDED_FILES = ['config'];

/** Paths for sandbox-runtime: a missing folder is guarded by naming a path below it, so its stand-in is an empty folder, not a file. */
const standInFolder = (path: string) => join(path, 'sandbox-read-only');

export interface PolicyPaths {
  /** A worktree run's git paths outside its root (its git folder, the object store, its branch's refs), and the command's temp folder. */
  alsoWritable?: readonly string[];
  /** The engine's own folders (the thread store, the worktrees root): read-only wherever they lie. */
  readOnly?: readonly string[];
  /**
   * Hidden from the command, save the writable folders inside (sandbox-runtime binds them back
   * over the empty folder): the folder of every command's temp folder, so that no command lists
   * or reads another's, running at the same time or started later.
   */
  hidden?: readonly string[];
}

/**
 * The sandbox for commands in `root` (a real path): the workspace writable, its protected entries
 * at the root read-only (and the critical missing ones uncreatable), `.git` writable only where
 * git's commands write (and not creatable where there is none), the engine's folders read-only,
 * everything else read-only, the home folder's secrets hidden, and the network closed except for
 * `allowedHosts`. Deeper protected files are the text check's.
 */
export function sandboxPolicy(root: string, home: string, allowedHosts: readonly string[], paths: PolicyPaths = {}): SandboxPolicy {
  const denyWrite = new Set<string>();
  let entries: string[] = [];
  try {
    entries = readdirSync(root);
  } catch {
    // An unreadable root: nothing to list, the workspace itself stays writable.
  }
  for (const name of entries) {
    if (name === '.git') continue;
    if (protectedReason(name, { anyDotfile: false }) || GUARD_WHEN_MISSING.includes(name)) denyWrite.add(join(root, name));
  }
  for (const name of GUARD_WHEN_MISSING) denyWrite.add(join(root, name));
  const allowWrite = [root, ...(paths.alsoWritable ?? []).filter((p) => p !== root)];
  const git = join(root, '.git');
  const gitInfo = lstatSync(git, { throwIfNoEntry: false });
  if (gitInfo?.isDirectory()) {
    // Bound on its own, the folder is a mount point: it cannot be renamed away and replaced by another.
    allowWrite.push(git);
    for (const path of gitReadOnly(git)) denyWrite.add(path);
  } else if (gitInfo) {
    // A worktree's .git is a file pointing at the repository: changing it points git elsewhere.
    denyWrite.add(git);
  } else if (!insideRepository(root)) {
    // None: an empty read-only folder stands in (git, finding no repository in it, looks on as before).
    denyWrite.add(standInFolder(git));
  }
  // A worktree run's own git folder (it has a `commondir`): what points git at its repository and config stays.
  for (const dir of paths.alsoWritable ?? []) {
    if (!existsSync(join(dir, 'commondir'))) continue;
    for (const name of ['commondir', 'gitdir', 'config.worktree', 'hooks']) if (existsSync(join(dir, name))) denyWrite.add(join(dir, name));
  }
  for (const path of paths.readOnly ?? []) {
    // Only where a writable folder holds it; one that holds a writable folder (a worktree run's own root) is left alone.
    if (!allowWrite.some((w) => isInside(w, path) && w !== path)) continue;
    denyWrite.add(existsSync(path) ? path : standInFolder(path));
  }
  const denyRead = [
    ...HOME_SECRETS.map((p) => join(home, p)).filter((p) => existsSync(p) && !isInside(p, root)),
    ...(paths.hidden ?? []).filter((p) => !isInside(p, root)),
  ];
  return { denyRead, allowWrite, denyWrite: [...denyWrite].sort(), allowedHosts: [...allowedHosts] };
}

/** In an existing `.git` folder: every entry git's commands do not write, and the guarded names when missing. */
function gitReadOnly(git: string): string[] {
  const out: string[] = [];
  let names: string[] = [];
  try {
    names = readdirSync(git);
  } catch {
    // Unreadable: the guarded names below still apply.
  }
  for (const name of names) if (!GIT_WRITABLE.has(name) && !GIT_WRITABLE_PATTERN.test(name)) out.push(join(git, name));
  for (const name of GIT_GUARDED_FOLDERS) out.push(existsSync(join(git, name)) ? join(git, name) : standInFolder(join(git, name)));
  for (const name of GIT_GUARDED_FILES) out.push(join(git, name));
  const unique = [...new Set(out)];
  // A path under another read-only one is read-only already.
  return unique.filter((p) => !unique.some((q) => q !== p && isInside(q, p)));
}

/** Whether a folder above `root` has a `.git` (the workspace is a folder of a repository). */
function insideRepository(root: string): boolean {
  for (let dir = dirname(root); dir !== dirname(dir); dir = dirname(dir))
    if (lstatSync(join(dir, '.git'), { throwIfNoEntry: false })) return true;
  return lstatSync('/.git', { throwIfNoEntry: false }) !== undefined;
}
