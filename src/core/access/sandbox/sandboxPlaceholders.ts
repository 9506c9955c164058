import { realpathSync } from 'node:fs';
import { relative, sep } from 'node:path';
import { isInside } from '../../platform/files/isInside';

/**
 * The empty files and folders bubblewrap makes on the host, for as long as a sandboxed command
 * runs, where a protected path is missing (`.env`, `.mcp.json`, `.bashrc`…: it mounts over them so
 * they cannot be created). They are the sandbox's, not a command's: the change recording leaves
 * them out (src/core/changes/attribution/workspaceWatch.ts), so a command never "created" them and a revert
 * has none to skip. Noted when a command is wrapped, forgotten when sandbox-runtime removes them,
 * by the launcher (commandLauncher.ts): sandboxRuntime.ts is a bundle of its own, and this list
 * must be the one the change recording reads.
 */
const live = new Set<string>();

export function notePlaceholders(paths: readonly string[]): void {
  for (const path of paths) live.add(path);
}

/** sandbox-runtime removed its mount points (no sandboxed command is left running). */
export function forgetPlaceholders(): void {
  live.clear();
}

/** The placeholders inside `root`, as workspace-relative paths with `/` separators. */
export function placeholdersUnder(root: string): Set<string> {
  const out = new Set<string>();
  if (live.size === 0) return out;
  let real = root;
  try {
    real = realpathSync(root);
  } catch {
    // Compared as given.
  }
  for (const path of live) if (isInside(real, path) && path !== real) out.add(relative(real, path).split(sep).join('/'));
  return out;
}
