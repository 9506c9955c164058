import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openablePath } from '../../../src/host/panel/openablePath';

// The panel asks to open a place; the host opens only files inside the workspace (links resolved)
// and the few settings files it allows, whatever the webview says.

const base = mkdtempSync(join(tmpdir(), 'subagents-open-'));
const ws = join(base, 'ws');
const outside = join(base, 'outside');
mkdirSync(join(ws, '.vscode'), { recursive: true });
mkdirSync(outside);
writeFileSync(join(ws, '.vscode', 'settings.json'), '{}');
writeFileSync(join(outside, 'secret.txt'), 'x');
writeFileSync(join(outside, 'settings.json'), '{}');
symlinkSync(join(outside, 'secret.txt'), join(ws, 'link.txt'));
const allowed = { roots: [ws], files: [join(outside, 'settings.json')] };
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('openablePath', () => {
  it('opens a file inside the workspace and an allowed settings file', async () => {
    await expect(openablePath(join(ws, '.vscode', 'settings.json'), allowed)).resolves.toMatch(/ws\/\.vscode\/settings\.json$/);
    await expect(openablePath(join(outside, 'settings.json'), allowed)).resolves.toMatch(/outside\/settings\.json$/);
  });

  it('opens a workspace-relative path (a file named in an answer) inside the workspace', async () => {
    await expect(openablePath('.vscode/settings.json', allowed)).resolves.toBe(join(realpathSync(ws), '.vscode', 'settings.json'));
    await expect(openablePath('./.vscode/../.vscode/settings.json', allowed)).resolves.toBe(
      join(realpathSync(ws), '.vscode', 'settings.json'),
    );
    await expect(openablePath('gone.md', allowed)).rejects.toThrow(/does not exist/);
    await expect(openablePath('settings.json', { roots: [], files: [] })).rejects.toThrow(/No folder is open/);
  });

  it('refuses a file outside, a link that leads out, a climb, a relative climb and a missing file', async () => {
    await expect(openablePath(join(outside, 'secret.txt'), allowed)).rejects.toThrow(/outside the workspace/);
    await expect(openablePath(join(ws, 'link.txt'), allowed)).rejects.toThrow(/outside the workspace/);
    await expect(openablePath(join(ws, '..', 'outside', 'secret.txt'), allowed)).rejects.toThrow(/outside the workspace/);
    await expect(openablePath('../outside/secret.txt', allowed)).rejects.toThrow(/outside the workspace/);
    await expect(openablePath('link.txt', allowed)).rejects.toThrow(/outside the workspace/);
    await expect(openablePath(join(ws, 'gone.md'), allowed)).rejects.toThrow(/does not exist/);
    await expect(openablePath(ws, allowed)).rejects.toThrow(/outside the workspace/);
  });
});
