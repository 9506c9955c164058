/**
 * Files that always ask before an agent changes them, whatever the approval mode: they configure
 * tools that run code (the editor's tasks and settings, git hooks, package managers, build and
 * test tools, CI), define agents, tools or instructions for an agent, or hold secrets. Judged on
 * the workspace-relative path, ignoring letter case, because the file systems of macOS and Windows
 * do. The OS sandbox makes the ones it can name read-only (src/core/access/sandbox/sandboxPolicy.ts).
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

/** Folders whose whole content is protected, wherever they are. */
export const NAMED_FOLDERS: Record<string, string> = {
  '.vscode': 'editor settings and tasks, which can run commands',
  '.git': "git's own data, including hooks that run on every commit",
  '.github': 'CI workflows, agent definitions and Copilot instructions',
  '.devcontainer': 'the dev container definition, which runs commands',
  '.husky': 'git hooks',
  '.claude': 'agent, command and hook definitions that give an agent tools',
};

/**
 * Files a tool runs or obeys when it reads them: a build or test run that is allowlisted (`npm
 * test`, `make`, `pytest`) would run what an agent wrote there, and agent instruction files
 * steer every agent that reads them.
 */
export const CODE_FILES: Record<string, string> = {
  'package.json': 'its scripts run on npm run, npm test and npm install',
  makefile: 'make runs its recipes',
  gnumakefile: 'make runs its recipes',
  'pyproject.toml': 'it configures Python builds and tools, which can run code',
  'setup.py': 'Python runs it on install',
  'setup.cfg': 'it configures Python builds and tools',
  'conftest.py': 'pytest runs it',
  'noxfile.py': 'nox runs it',
  'tox.ini': 'tox runs the commands in it',
  'build.rs': 'cargo runs it on build',
  'cargo.toml': 'it configures cargo builds, which can run code',
  rakefile: 'rake runs it',
  gemfile: 'bundler runs it',
  justfile: 'just runs its recipes',
  'taskfile.yml': 'task runs its commands',
  'cmakelists.txt': 'cmake runs it',
  'build.gradle': 'gradle runs it',
  'build.gradle.kts': 'gradle runs it',
  'settings.gradle': 'gradle runs it',
  'settings.gradle.kts': 'gradle runs it',
  'pom.xml': 'maven runs its plugins',
  gradlew: 'it is run to build',
  mvnw: 'it is run to build',
  jenkinsfile: 'CI runs it',
  '.gitlab-ci.yml': 'CI runs it',
  'azure-pipelines.yml': 'CI runs it',
  'bitbucket-pipelines.yml': 'CI runs it',
  '.mcp.json': 'it starts MCP servers, which run commands and give agents tools',
  'agents.md': 'agents read it as instructions',
  'claude.md': 'agents read it as instructions',
};

/** `vite.config.ts`, `eslint.config.mjs`, `jest.config.js`…: the tool runs the file when it starts. */
const CONFIG_SCRIPT = /\.config\.(js|cjs|mjs|ts|cts|mts)$/;

/**
 * Why changing this workspace-relative path must be approved by the user, or undefined.
 * `anyDotfile: false` leaves out the catch-all for other dotfiles (`.venv`, `.cache`), which the
 * OS sandbox cannot make read-only without breaking builds.
 */
export function protectedReason(rel: string, { anyDotfile = true }: { anyDotfile?: boolean } = {}): string | undefined {
  const segments = rel
    .toLowerCase()
    .split('/')
    .filter((s) => s.length > 0);
  const name = segments[segments.length - 1];
  if (!name) return undefined;
  for (const segment of segments.slice(0, -1)) {
    const why = NAMED_FOLDERS[segment];
    if (why) return `${rel} is inside ${segment}/ (${why})`;
  }
  if (NAMED_FOLDERS[name]) return `${rel} is ${name} itself (${NAMED_FOLDERS[name]})`;
  // HEAD, objects/ and refs/ together at the root make it a repository git trusts and runs hooks from.
  if (segments.length === 1 ? name === 'head' : segments[0] === 'objects' || segments[0] === 'refs') {
    return `${rel} is part of a git repository's layout at the workspace root (git would run that repository's hooks and config)`;
  }
  if (name.endsWith('.code-workspace')) return `${rel} is a workspace file (settings and tasks that can run commands)`;
  const secret = secretFileReason(rel);
  if (secret) return secret;
  if (LOCK_FILES.has(name)) return `${rel} is a lock file (it decides which code gets installed)`;
  if (CODE_FILES[name]) return `${rel} runs code or steers agents (${CODE_FILES[name]})`;
  if (CONFIG_SCRIPT.test(name)) return `${rel} is a tool's configuration script (the tool runs it when it starts)`;
  // Dotfiles and dot-folders are where tools keep configuration that can run code (.npmrc, .yarnrc, .envrc, .eslintrc.js).
  const dotted = segments.find((s) => s.startsWith('.'));
  if (dotted && anyDotfile)
    return `${rel} is ${dotted === name ? 'a dotfile' : `inside ${dotted}/`} (tool configuration that can run code)`;
  return undefined;
}

/** Files that hold secrets (`.env*`, keys and certificates): reading them asks too. */
export function secretFileReason(rel: string): string | undefined {
  const name = rel.toLowerCase().split('/').pop() ?? '';
  if (name.startsWith('.env')) return `${rel} may hold secrets (an environment file)`;
  if (/\.(pem|key|p12|pfx)$/.test(name) || /^id_(rsa|dsa|ecdsa|ed25519)(\.|$)/.test(name)) return `${rel} may hold a private key`;
  return undefined;
}
