import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openThreadMemory } from '../../../src/host/panel/openThreadMemory';
import type { WindowMemento } from '../../../src/host/workspace/windowStorage';
import type { Logger } from '../../../src/core/ports';

// The open thread survives a reload because it is on disk before set() resolves, not when the
// workbench gets round to saving workspaceState (in a browser, a reload right after a first
// message lost it).
const KEY = 'subagents.threadId';

/** A memento that never saves: what a reload before the workbench's save leaves. */
function forgetfulMemento(initial?: string): WindowMemento & { values: Map<string, unknown> } {
  const values = new Map<string, unknown>(initial === undefined ? [] : [[KEY, initial]]);
  return { values, get: <T>(key: string) => values.get(key) as T | undefined, update: async (key, value) => void values.set(key, value) };
}

function logger(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  const note = (m: string) => void warnings.push(m);
  return { warnings, debug: () => {}, info: () => {}, warn: note, error: note };
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'open-thread-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('openThreadMemory', () => {
  it('keeps the open thread on disk: a new window whose workspaceState was never saved finds it', async () => {
    const log = logger();
    await openThreadMemory(join(dir, 'storage'), forgetfulMemento(), KEY, log).set('t_0123456789abcdef0123');
    expect(JSON.parse(readFileSync(join(dir, 'storage', 'open-thread.json'), 'utf8'))).toEqual({ threadId: 't_0123456789abcdef0123' });
    // After the reload: a fresh memento (nothing saved), the same folder.
    expect(openThreadMemory(join(dir, 'storage'), forgetfulMemento(), KEY, log).get()).toBe('t_0123456789abcdef0123');
    expect(log.warnings).toEqual([]);
  });

  it('a new conversation is remembered as none, over an older workspaceState value', async () => {
    const memento = forgetfulMemento('t_old');
    const memory = openThreadMemory(dir, memento, KEY, logger());
    await memory.set(undefined);
    expect(openThreadMemory(dir, forgetfulMemento('t_old'), KEY, logger()).get()).toBeUndefined();
    expect(memento.values.get(KEY)).toBeUndefined();
  });

  it('reads workspaceState when there is no file yet (a window from before the file)', () => {
    expect(openThreadMemory(dir, forgetfulMemento('t_fromstate'), KEY, logger()).get()).toBe('t_fromstate');
  });

  it('a file that is not ours (not JSON, a path for an id) is said in the log and ignored', () => {
    for (const text of ['{', JSON.stringify({ threadId: '../../etc/passwd' }), JSON.stringify(['t_x'])]) {
      writeFileSync(join(dir, 'open-thread.json'), text);
      const log = logger();
      expect(openThreadMemory(dir, forgetfulMemento('t_fromstate'), KEY, log).get()).toBeUndefined();
      expect(log.warnings.join('\n')).toContain('does not name a thread');
    }
  });

  it('a folder it cannot write is said in the log, and workspaceState still gets the id', async () => {
    const blocked = join(dir, 'a-file');
    writeFileSync(blocked, '');
    const memento = forgetfulMemento();
    const log = logger();
    await openThreadMemory(join(blocked, 'storage'), memento, KEY, log).set('t_abc');
    expect(log.warnings.join('\n')).toContain('Could not remember the open thread');
    expect(memento.values.get(KEY)).toBe('t_abc');
  });
});
