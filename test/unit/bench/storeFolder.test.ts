import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { formatFolderCosts, storeFolderCosts } from '../../../bench/storeFolder';

// The benches print what the JSONL store's folder costs beside their tables: the probe must time
// every operation it names, in the folder given, and leave that folder as it found it.

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('storeFolderCosts', () => {
  it('times each operation once per sample and leaves what was there, and nothing else', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'subagents-folder-probe-'));
    dirs.push(dir);
    writeFileSync(join(dir, 't_existing.jsonl'), '{}\n');
    const costs = await storeFolderCosts(dir, 5, 0);
    for (const s of [costs.createFile, costs.link, costs.unlink, costs.removeFile]) {
      expect(s.min).toBeGreaterThan(0);
      expect(s.min).toBeLessThanOrEqual(s.median);
      expect(s.median).toBeLessThanOrEqual(s.max);
    }
    expect(readdirSync(dir)).toEqual(['t_existing.jsonl']);
  });

  it('makes the folder when it is missing, and says its figures in one line', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'subagents-folder-probe-'));
    dirs.push(parent);
    const costs = await storeFolderCosts(join(parent, 'store'), 3, 0);
    expect(readdirSync(join(parent, 'store'))).toEqual([]);
    const line = formatFolderCosts('a test folder', costs);
    expect(line).toContain(`make a file ${costs.createFile.median.toFixed(0)} µs`);
    expect(line).toContain(`unlink the lease ${costs.unlink.median.toFixed(0)} µs`);
    expect(line).toContain('after a 0 ms pause as in a run, medians (min–max) of 3:');
  });
});
