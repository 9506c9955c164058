import { realpath } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';

export interface OpenableFiles {
  /** Folders whose files may be opened: the workspace folders. */
  roots: readonly string[];
  /** Single files that may be opened too: the .code-workspace file, the user settings file. */
  files: readonly string[];
}

/**
 * The real path of a file the panel asked to open, if it may be opened: inside a workspace folder
 * (after resolving links, so a link cannot lead out), or one of the allowed files. A relative path
 * (a file an answer names, `src/invoice.ts`) is taken from the first workspace folder. The webview
 * is the untrusted side; what it names is checked here, never trusted. Throws a sentence otherwise.
 */
export async function openablePath(given: string, allowed: OpenableFiles): Promise<string> {
  let path = given;
  if (!isAbsolute(path)) {
    const root = allowed.roots[0];
    if (!root) throw new Error(`No folder is open, so ${given} cannot be found.`);
    path = join(root, path);
  }
  let real: string;
  try {
    real = await realpath(path);
  } catch {
    throw new Error(`${path} does not exist (any more); the problem may be fixed already.`);
  }
  for (const file of allowed.files) if (real === (await realpathOr(file))) return real;
  for (const root of allowed.roots) {
    const inside = relative(await realpathOr(root), real);
    if (inside && !inside.startsWith(`..${sep}`) && inside !== '..' && !isAbsolute(inside)) return real;
  }
  throw new Error(`${path} is outside the workspace, so the panel does not open it.`);
}

async function realpathOr(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch {
    return path;
  }
}
