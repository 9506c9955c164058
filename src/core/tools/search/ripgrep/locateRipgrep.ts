import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/**
 * Where the editor keeps its own ripgrep, under its install folder (`vscode.env.appRoot`). Not API:
 * the known layouts of VS Code (packed and unpacked asar) and code-server (one binary per platform).
 */
export function editorRipgrepCandidates(
  appRoot: string,
  platform: NodeJS.Platform = process.platform,
  arch: string = process.arch,
): string[] {
  const exe = platform === 'win32' ? 'rg.exe' : 'rg';
  const universal = `${platform === 'win32' ? 'win32' : platform}-${arch}`;
  return [
    join(appRoot, 'node_modules', '@vscode', 'ripgrep', 'bin', exe),
    join(appRoot, 'node_modules.asar.unpacked', '@vscode', 'ripgrep', 'bin', exe),
    join(appRoot, 'node_modules', 'vscode-ripgrep', 'bin', exe),
    join(appRoot, 'node_modules.asar.unpacked', 'vscode-ripgrep', 'bin', exe),
    join(appRoot, 'node_modules', '@vscode', 'ripgrep-universal', 'bin', universal, exe),
    join(appRoot, '..', 'node_modules', '@vscode', 'ripgrep-universal', 'bin', universal, exe),
  ];
}

function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** `rg` on the PATH, as a shell would find it. */
export function ripgrepOnPath(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string | undefined {
  const names = platform === 'win32' ? ['rg.exe'] : ['rg'];
  for (const dir of (env.PATH ?? env.Path ?? '').split(delimiter)) {
    if (!dir) continue;
    for (const name of names) if (isExecutableFile(join(dir, name))) return join(dir, name);
  }
  return undefined;
}

/**
 * The ripgrep binary to search with: the editor's own when `appRoot` is given and one is there,
 * else `rg` on the PATH; undefined when there is none (the tools fall back to their own walker).
 */
export function locateRipgrep(options: { appRoot?: string; env?: NodeJS.ProcessEnv } = {}): string | undefined {
  if (options.appRoot) {
    const found = editorRipgrepCandidates(options.appRoot).find(isExecutableFile);
    if (found) return found;
  }
  return ripgrepOnPath(options.env);
}
