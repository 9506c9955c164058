import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * Where "Export Thread…" (and "Import Thread…") proposes a file: the folder the user chose the
 * last time, else their Downloads folder, else their home. Never the workspace by default: an
 * export is to keep or share, and a file dropped in the repository is one `git add .` from being
 * committed. A remembered folder is the user's own choice, so it is proposed even inside a
 * workspace. Pure: the caller says which folders exist.
 */
export interface ExportFolderChoice {
  /** The folder of the last export or import, remembered across windows; undefined the first time. */
  lastUsed: string | undefined;
  /** The user's home folder. */
  home: string;
  /** The folders open in this window. */
  workspaceRoots: readonly string[];
  /** Whether a folder is there (a remembered one may have been deleted since). */
  isFolder(folder: string): boolean;
}

/** `folder` is `root` or inside it. */
function within(folder: string, root: string): boolean {
  const rel = path.relative(root, folder);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

export function exportFolder(choice: ExportFolderChoice): string {
  if (choice.lastUsed && path.isAbsolute(choice.lastUsed) && choice.isFolder(choice.lastUsed)) return choice.lastUsed;
  const candidates = [path.join(choice.home, 'Downloads'), choice.home].filter((f) => choice.isFolder(f));
  const outside = candidates.find((f) => !choice.workspaceRoots.some((root) => within(f, root)));
  if (outside) return outside;
  // A workspace opened at the home folder: its Downloads folder is still not its root.
  const notRoot = candidates.find((f) => !choice.workspaceRoots.some((root) => path.relative(root, f) === ''));
  return notRoot ?? choice.home;
}

/** The globalState key the last export's folder is kept under. */
export const EXPORT_FOLDER_KEY = 'subagents.exportFolder';

/** `isFolder` over the disk, for the editor; a folder that cannot be read is not proposed. */
export function isFolderOnDisk(folder: string): boolean {
  try {
    return fs.statSync(folder).isDirectory();
  } catch {
    return false;
  }
}
