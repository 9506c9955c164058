import { existsSync, lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { protectedReason } from '../tools/protectedPaths';
import { isInside } from '../tools/workspacePath';

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
const GUARD_WHEN_MISSING = ['.vscode', '.github', '.claude', '.devcontainer', '.husky', '.mcp.json', '.env', '.envrc', '.npmrc', '.yarnrc', '.yarnrc.yml', '.gitmodules'];

/** Inside .git, what runs code: its config (fsmonitor, aliases, filters), hooks, and submodules' copies. */
const GIT_CODE = ['config', 'hooks', 'modules', 'info'];

/**
 * The sandbox for commands in `root` (a real path): the workspace writable, its protected entries
 * at the root read-only (and the critical missing ones uncreatable), git's own data writable
 * except what runs code, everything else read-only, the home folder's secrets hidden, and the
 * network closed except for `allowedHosts`. Deeper protected files are the text check's.
 * `alsoWritable`: a worktree run's git paths outside its root (its git folder, the object store,
 * its branch's refs), and nothing else.
 */
export function sandboxPolicy(root: string, home: string, allowedHosts: readonly string[], alsoWritable: readonly string[] = []): SandboxPolicy {
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
  const git = join(root, '.git');
  const gitInfo = lstatSync(git, { throwIfNoEntry: false });
  // A worktree's .git is a file pointing at the repository: changing it points git elsewhere.
  if (gitInfo?.isDirectory()) for (const name of GIT_CODE.filter((n) => existsSync(join(git, n)))) denyWrite.add(join(git, name));
  else if (gitInfo) denyWrite.add(git);
  const denyRead = HOME_SECRETS.map((p) => join(home, p)).filter((p) => existsSync(p) && !isInside(p, root));
  return { denyRead, allowWrite: [root, ...alsoWritable.filter((p) => p !== root)], denyWrite: [...denyWrite].sort(), allowedHosts: [...allowedHosts] };
}
