/**
 * Files that always ask before an agent changes them, whatever the approval mode: they configure
 * tools that run code (the editor's tasks and settings, git hooks, package managers, CI) or hold
 * secrets. Judged on the workspace-relative path, ignoring letter case, because the file systems
 * of macOS and Windows do.
 */

const LOCK_FILES = new Set([
  'package-lock.json',
  'npm-shrinkwrap.json',
  'yarn.lock',
  'pnpm-lock.yaml',
  'bun.lock',
  'bun.lockb',
  'deno.lock',
  'cargo.lock',
  'gemfile.lock',
  'poetry.lock',
  'pipfile.lock',
  'uv.lock',
  'composer.lock',
  'go.sum',
  'flake.lock',
]);

const NAMED_FOLDERS: Record<string, string> = {
  '.vscode': 'editor settings and tasks, which can run commands',
  '.git': "git's own data, including hooks that run on every commit",
  '.github': 'CI workflows and agent definitions',
  '.devcontainer': 'the dev container definition, which runs commands',
  '.husky': 'git hooks',
};

/** Why changing this workspace-relative path must be approved by the user, or undefined. */
export function protectedReason(rel: string): string | undefined {
  const segments = rel.toLowerCase().split('/').filter((s) => s.length > 0);
  const name = segments[segments.length - 1];
  if (!name) return undefined;
  for (const segment of segments.slice(0, -1)) {
    const why = NAMED_FOLDERS[segment];
    if (why) return `${rel} is inside ${segment}/ (${why})`;
  }
  if (NAMED_FOLDERS[name]) return `${rel} is ${name} itself (${NAMED_FOLDERS[name]})`;
  if (name.endsWith('.code-workspace')) return `${rel} is a workspace file (settings and tasks that can run commands)`;
  if (name.startsWith('.env')) return `${rel} may hold secrets (an environment file)`;
  if (LOCK_FILES.has(name)) return `${rel} is a lock file (it decides which code gets installed)`;
  // Dotfiles and dot-folders are where tools keep configuration that can run code (.npmrc, .envrc, .eslintrc.js).
  const dotted = segments.find((s) => s.startsWith('.'));
  if (dotted) return `${rel} is ${dotted === name ? 'a dotfile' : `inside ${dotted}/`} (tool configuration that can run code)`;
  return undefined;
}
