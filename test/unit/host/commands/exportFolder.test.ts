import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exportFolder } from '../../../../src/host/commands/exportFolder';

// "Export Thread…" proposes a folder outside the workspace: the last one used, else Downloads,
// else home. Over real folders in a temp home.

const base = mkdtempSync(join(tmpdir(), 'export-folder-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));
const isFolder = (f: string): boolean => {
  try {
    return statSync(f).isDirectory();
  } catch {
    return false;
  }
};

function home(name: string, withDownloads: boolean): string {
  const h = join(base, name);
  mkdirSync(withDownloads ? join(h, 'Downloads') : h, { recursive: true });
  return h;
}

describe('the folder Export Thread… proposes', () => {
  it('is Downloads the first time, not the workspace', () => {
    const h = home('a', true);
    const ws = join(h, 'projects', 'app');
    mkdirSync(ws, { recursive: true });
    expect(exportFolder({ lastUsed: undefined, home: h, workspaceRoots: [ws], isFolder })).toBe(join(h, 'Downloads'));
  });

  it('is home when there is no Downloads folder', () => {
    const h = home('b', false);
    expect(exportFolder({ lastUsed: undefined, home: h, workspaceRoots: [join(base, 'elsewhere')], isFolder })).toBe(h);
  });

  it('is the folder used last, while it is still there, even inside a workspace (the user chose it)', () => {
    const h = home('c', true);
    const last = join(h, 'exports');
    mkdirSync(last);
    expect(exportFolder({ lastUsed: last, home: h, workspaceRoots: [], isFolder })).toBe(last);
    expect(exportFolder({ lastUsed: h, home: h, workspaceRoots: [h], isFolder })).toBe(h);
    rmSync(last, { recursive: true });
    expect(exportFolder({ lastUsed: last, home: h, workspaceRoots: [], isFolder })).toBe(join(h, 'Downloads'));
    // A remembered value that is not an absolute path is not a folder to trust.
    expect(exportFolder({ lastUsed: 'exports', home: h, workspaceRoots: [], isFolder })).toBe(join(h, 'Downloads'));
  });

  it('is never the workspace root, even when the workspace is the home folder', () => {
    const withDownloads = home('d', true);
    expect(exportFolder({ lastUsed: undefined, home: withDownloads, workspaceRoots: [withDownloads], isFolder })).toBe(
      join(withDownloads, 'Downloads'),
    );
    // Downloads open as the workspace: home is outside it.
    expect(exportFolder({ lastUsed: undefined, home: withDownloads, workspaceRoots: [join(withDownloads, 'Downloads')], isFolder })).toBe(
      withDownloads,
    );
  });
});
