import { randomUUID } from 'node:crypto';
import * as path from 'node:path';

/** The slice of vscode.Memento this needs (workspaceState: kept per window, across reloads). */
export interface WindowMemento {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): PromiseLike<void>;
}

export interface WindowStorage {
  /** This window's thread store. */
  threadsDir: string;
  /** With no folder open: the empty folder the tools work in (never the home folder). */
  toolRoot?: string;
}

const WINDOW_KEY = 'subagents.windowStorageId';

/**
 * Where this window keeps its threads. With a folder open: the folder's own storage
 * (`context.storageUri`). With none, VS Code gives no per-window folder, and the global one is
 * shared by every folderless window: each would close the others' live runs as interrupted when
 * it loads them. So each such window gets a namespace of its own under the global storage, named
 * by an id kept in its workspaceState, which survives a reload of that window.
 */
export function windowStorage(where: { storageDir: string | undefined; globalDir: string; memento: WindowMemento }): WindowStorage {
  if (where.storageDir) return { threadsDir: path.join(where.storageDir, 'threads') };
  let id = where.memento.get<string>(WINDOW_KEY);
  if (typeof id !== 'string' || !/^[a-f0-9]{32}$/.test(id)) {
    id = randomUUID().replace(/-/g, '');
    void where.memento.update(WINDOW_KEY, id);
  }
  const base = path.join(where.globalDir, 'windows', id);
  return { threadsDir: path.join(base, 'threads'), toolRoot: path.join(base, 'workspace') };
}
