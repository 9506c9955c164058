import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { windowStorage, type WindowMemento } from '../../../src/host/workspace/windowStorage';

/** A window's workspaceState: kept across reloads of that window, empty in a new window. */
function memento(): WindowMemento & { values: Map<string, unknown> } {
  const values = new Map<string, unknown>();
  return {
    values,
    get: <T>(key: string) => values.get(key) as T | undefined,
    update: async (key, value) => void values.set(key, value),
  };
}

describe('windowStorage', () => {
  it('keeps threads in the folder storage when a folder is open', () => {
    expect(windowStorage({ storageDir: '/ws-storage/abc', globalDir: '/global', memento: memento() })).toEqual({
      threadsDir: join('/ws-storage/abc', 'threads'),
    });
  });

  it('gives every folderless window its own namespace, the same one again after a reload', () => {
    const one = memento();
    const two = memento();
    const first = windowStorage({ storageDir: undefined, globalDir: '/global', memento: one });
    const second = windowStorage({ storageDir: undefined, globalDir: '/global', memento: two });
    // Two windows never share a thread folder, so neither closes the other's live runs as interrupted.
    expect(first.threadsDir).not.toBe(second.threadsDir);
    expect(first.threadsDir.startsWith(join('/global', 'windows'))).toBe(true);
    expect(first.toolRoot).not.toBe(second.toolRoot);
    // A reload of the first window finds its own threads again.
    expect(windowStorage({ storageDir: undefined, globalDir: '/global', memento: one })).toEqual(first);
  });

  it('replaces a stored id that is not one of its own (never a path from elsewhere)', () => {
    const m = memento();
    m.values.set('subagents.windowStorageId', '../../etc');
    const dirs = windowStorage({ storageDir: undefined, globalDir: '/global', memento: m });
    expect(dirs.threadsDir).toMatch(/^\/global\/windows\/[a-f0-9]{32}\/threads$/);
  });
});
