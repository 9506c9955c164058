import { lstat, realpath } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { identityOf, type FileIdentity } from '../../platform/files/fileIdentity';
import { isInside } from '../../platform/files/isInside';

export { isInside } from '../../platform/files/isInside';

/** A path a tool may use: inside the workspace once every symlink is followed. */
export interface WorkspacePath {
  /** Absolute, with symlinks resolved as far as the path exists. */
  abs: string;
  /** Relative to the (real) workspace root, with forward slashes; '' for the root itself. */
  rel: string;
  exists: boolean;
  /** The file or folder it leads to when it exists: a write must reach this same one. */
  identity?: FileIdentity;
  /** How many names the file has; more than one is a hard link, perhaps to a file outside. */
  links?: number;
}

export type PathCheck = ({ ok: true } & WorkspacePath) | { ok: false; error: string };

/** Windows device names: a file called `nul.txt` there is the null device, whatever the folder. */
const DEVICE_NAME = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$)(\..*)?$/i;
/** 8.3 short names (`GIT~1`) are another spelling of a protected folder on Windows. */
const SHORT_NAME = /~\d/;

/**
 * Why a path as written is refused before the filesystem is asked, or undefined. Names that one
 * system reads differently from another (trailing dots and spaces vanish on Windows, `:` opens a
 * stream) could let a protected or outside path pass a check made on the text.
 */
export function oddPathReason(input: string): string | undefined {
  if (input.length === 0) return 'the path is empty';
  if (/[\u0000-\u001f\u007f]/.test(input)) return 'the path contains a control character (such as NUL or a newline)';
  if (input.includes('\\') && sep !== '\\') return 'the path contains a backslash; use forward slashes';
  for (const segment of input.split(/[\\/]/)) {
    if (segment === '' || segment === '.' || segment === '..') continue;
    if (/[. ]$/.test(segment)) return `the name "${segment}" ends with a dot or a space`;
    if (segment.includes(':') && !(sep === '\\' && /^[a-z]:$/i.test(segment))) return `the name "${segment}" contains ":"`;
    if (DEVICE_NAME.test(segment)) return `"${segment}" is a reserved device name`;
    if (SHORT_NAME.test(segment)) return `"${segment}" looks like a short (8.3) alias of another name`;
  }
  return undefined;
}

/**
 * Resolves a path an agent gave (relative to the workspace, or absolute) and requires it to stay
 * inside the workspace after every symlink is followed. A path that does not exist yet is judged by
 * its deepest existing ancestor, so a new file under a symlink to elsewhere is refused too.
 */
export async function resolveWorkspacePath(root: string, input: string): Promise<PathCheck> {
  const odd = oddPathReason(input);
  if (odd) return refuse(input, odd);
  const realRoot = await realpath(root);
  // An absolute path may spell the root as the editor does (/tmp/ws) or as the disk does (/private/tmp/ws).
  const given = resolve(root, input);
  const wanted = isInside(root, given) ? join(realRoot, relative(root, given)) : given;
  if (!isInside(realRoot, wanted)) return refuse(input, 'it is outside the workspace');

  // Walk up to the deepest part of the path that exists, remembering the parts that do not.
  const missing: string[] = [];
  let existing = wanted;
  for (;;) {
    const stat = await lstat(existing).catch((e: NodeJS.ErrnoException) =>
      e.code === 'ENOENT' || e.code === 'ENOTDIR' ? undefined : Promise.reject(e),
    );
    if (stat) break;
    missing.unshift(basename(existing));
    existing = dirname(existing);
  }
  let real: string;
  try {
    real = await realpath(existing);
  } catch {
    return refuse(input, 'it is a symbolic link whose target does not exist');
  }
  if (!isInside(realRoot, real)) return refuse(input, 'it leads outside the workspace through a symbolic link');
  const abs = missing.length ? join(real, ...missing) : real;
  const rel = relative(realRoot, abs).split(sep).join('/');
  if (missing.length) return { ok: true, abs, rel, exists: false };
  const info = await lstat(real);
  return { ok: true, abs, rel, exists: true, identity: identityOf(info), links: info.nlink };
}

function refuse(input: string, why: string): PathCheck {
  return { ok: false, error: `Refused "${printable(input)}": ${why}. Use a path inside the workspace, relative to its root.` };
}

/** The path as a model can read it back: control characters shown as escapes. */
function printable(input: string): string {
  return input.replace(/[\u0000-\u001f\u007f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).slice(0, 300);
}
