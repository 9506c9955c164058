import type { z } from 'zod';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunFiles } from '../../../../src/core/changes/attribution/runFiles';
import { FileChanges } from '../../../../src/core/changes/attribution/fileChanges';
import { MemorySnapshotStore } from '../../../../src/core/changes/attribution/snapshotStore';
import { DEFAULT_SETTINGS } from '../../../../src/core/config/settings/engineSettings';
import { nodeWorkspace } from '../../../../src/core/engine/nodeWorkspace';
import { commandLauncher } from '../../../../src/core/access/sandbox/commandLauncher';
import type { ApprovalGate } from '../../../../src/core/tools/approvalGate';
import type { ToolCallContext } from '../../../../src/core/tools/toolSpec';
import { workspaceTools } from '../../../../src/core/tools/workspaceTools';
import { makeWorld } from './toolWorld';

let world: Awaited<ReturnType<typeof makeWorld>>;
beforeEach(async () => {
  world = await makeWorld();
});
afterEach(() => world.cleanup());

const openGate: ApprovalGate = { check: async () => ({ ok: true, asked: false }), readAsks: () => false };
const context = (signal = new AbortController().signal): ToolCallContext => ({ runId: 'r', threadId: 't', toolCallId: 'c', signal });

/** One run's files per test, as a real run has: its own writes are what it last saw (a new run per call would see them as changes since it started). */
let runFiles: { root: string; files: RunFiles } | undefined;

async function call(name: string, input: unknown, signal?: AbortSignal) {
  const workspace = nodeWorkspace({ root: world.root });
  if (runFiles?.root !== world.root)
    runFiles = {
      root: world.root,
      files: new FileChanges(new MemorySnapshotStore()).forRun({ runId: 'r', agent: 'test', workspace, emit: () => {} }),
    };
  const files = runFiles.files;
  const commands = commandLauncher(world.root, { ...DEFAULT_SETTINGS, 'sandbox.mode': 'off' }, () => {});
  const spec = workspaceTools({ workspace, gate: openGate, agent: 'test', commands, files }).find((t) => t.name === name)!;
  return (await spec.execute((spec.inputSchema as z.ZodType).parse(input), context(signal))) as Record<string, unknown>;
}

async function put(rel: string, content: string) {
  await mkdir(join(world.root, rel, '..'), { recursive: true });
  await writeFile(join(world.root, rel), content);
}

describe('read_file', () => {
  it('reads a range of lines, and says how to read on past its cap', async () => {
    await put('a.txt', Array.from({ length: 2500 }, (_, i) => `line ${i + 1}`).join('\n'));
    expect(await call('read_file', { path: 'a.txt', startLine: 2, endLine: 3 })).toEqual({
      path: 'a.txt',
      startLine: 2,
      endLine: 3,
      totalLines: 2500,
      content: '     2\tline 2\n     3\tline 3',
    });
    const whole = await call('read_file', { path: 'a.txt' });
    expect(whole).toMatchObject({ startLine: 1, endLine: 2000, note: 'Showing lines 1–2000 of 2500; read on with startLine 2001.' });
    expect(await call('read_file', { path: 'a.txt', startLine: 3000 })).toMatchObject({ error: expect.stringMatching(/past its end/) });
  });

  it('refuses folders, binary files and missing files with a hint', async () => {
    await put('bin.dat', 'a\u0000b');
    expect((await call('read_file', { path: 'bin.dat' })).error).toMatch(/binary/);
    expect((await call('read_file', { path: '.' })).error).toMatch(/list_dir/);
    expect((await call('read_file', { path: 'nope.txt' })).error).toMatch(/find_files/);
  });
});

describe('list_dir', () => {
  it('lists one folder, marking folders and links', async () => {
    await put('src/x.ts', '');
    await put('b.txt', '');
    await symlink('b.txt', join(world.root, 'link'));
    expect(await call('list_dir', { path: '.' })).toEqual({ path: '.', entries: ['b.txt', 'link@', 'src/'] });
  });
});

describe('find_files and search_text', () => {
  beforeEach(async () => {
    await put('.gitignore', 'dist/\n*.log\n');
    await put('src/app.ts', 'export const answer = 42;\n// TODO: more\n');
    await put('src/lib/util.ts', 'export function todo() {}\n');
    await put('src/.gitignore', 'generated.ts\n');
    await put('src/generated.ts', 'TODO generated\n');
    await put('dist/app.js', 'TODO built\n');
    await put('debug.log', 'TODO log\n');
    await put('README.md', '# TODO\n');
    await symlink(world.sibling, join(world.root, 'outside'));
  });

  it('find_files honours .gitignore at every level and never follows links out', async () => {
    expect(await call('find_files', { pattern: '*.ts' })).toEqual({ files: ['src/app.ts', 'src/lib/util.ts'] });
    expect(await call('find_files', { pattern: 'src/**' })).toEqual({ files: ['src/.gitignore', 'src/app.ts', 'src/lib/util.ts'] });
    expect(await call('find_files', { pattern: '**/secret.txt' })).toMatchObject({ files: [] });
    expect((await call('find_files', { pattern: '../**' })).error).toMatch(/outside the workspace/);
  });

  it('search_text finds regex matches as path:line: text, ignoring case by default', async () => {
    expect(await call('search_text', { pattern: 'todo' })).toEqual({
      matches: ['README.md:1: # TODO', 'src/app.ts:2: // TODO: more', 'src/lib/util.ts:1: export function todo() {}'],
    });
    expect(await call('search_text', { pattern: 'TODO', caseSensitive: true, glob: 'src/**/*.ts' })).toEqual({
      matches: ['src/app.ts:2: // TODO: more'],
    });
    expect((await call('search_text', { pattern: 'secret' })).matches).toEqual([]);
    expect((await call('search_text', { pattern: '(' })).error).toMatch(/not a valid regular expression/);
  });

  it("search_text keeps each line's indentation, so code read through it keeps its shape (issue 39 item 6)", async () => {
    await put('src/nested.py', 'def f():\n    if x:\n\treturn 1   \n');
    expect(await call('search_text', { pattern: 'return|if', glob: 'src/*.py' })).toEqual({
      matches: ['src/nested.py:2:     if x:', 'src/nested.py:3: \treturn 1'],
    });
  });

  it('search_text caps its matches with a note', async () => {
    await put('many.txt', Array.from({ length: 300 }, () => 'hit').join('\n'));
    const result = await call('search_text', { pattern: 'hit' });
    expect(result.matches).toHaveLength(200);
    expect(result.note).toMatch(/Only the first 200 matches/);
  });

  it('stops when its run is cancelled', async () => {
    const controller = new AbortController();
    controller.abort(new Error('cancelled'));
    await expect(call('search_text', { pattern: 'x' }, controller.signal)).rejects.toThrow('cancelled');
  });
});

describe('write_file and edit_file', () => {
  it('write_file creates missing folders and replaces whole files', async () => {
    expect(await call('write_file', { path: 'new/deep/a.txt', content: 'one' })).toEqual({
      path: 'new/deep/a.txt',
      created: true,
      chars: 3,
    });
    expect(await call('write_file', { path: 'new/deep/a.txt', content: 'two' })).toMatchObject({ created: false });
    expect(await readFile(join(world.root, 'new/deep/a.txt'), 'utf8')).toBe('two');
    expect((await call('write_file', { path: 'new', content: 'x' })).error).toMatch(/is a folder/);
  });

  it('edit_file replaces exactly one occurrence, and fails clearly when the text is missing or not unique', async () => {
    await put('a.ts', 'let a = 1;\nlet b = 1;\nlet c = 2;\n');
    expect((await call('edit_file', { path: 'a.ts', oldText: 'let z', newText: 'x' })).error).toMatch(/not found in a.ts/);
    expect((await call('edit_file', { path: 'a.ts', oldText: '= 1', newText: '= 3' })).error).toMatch(/occurs 2 times in a.ts/);
    expect((await call('edit_file', { path: 'a.ts', oldText: '', newText: 'x' })).error).toMatch(/oldText is empty/);
    expect(await readFile(join(world.root, 'a.ts'), 'utf8')).toBe('let a = 1;\nlet b = 1;\nlet c = 2;\n');
    expect(await call('edit_file', { path: 'a.ts', oldText: 'let b = 1;', newText: 'let b = $& 2;' })).toEqual({ path: 'a.ts', line: 2 });
    expect(await readFile(join(world.root, 'a.ts'), 'utf8')).toBe('let a = 1;\nlet b = $& 2;\nlet c = 2;\n');
  });

  it('edit_file matches text written with LF in a CRLF file, and keeps CRLF', async () => {
    await put('w.txt', 'one\r\ntwo\r\nthree\r\n');
    expect(await call('edit_file', { path: 'w.txt', oldText: 'one\ntwo', newText: 'uno\ndos' })).toEqual({ path: 'w.txt', line: 1 });
    expect(await readFile(join(world.root, 'w.txt'), 'utf8')).toBe('uno\r\ndos\r\nthree\r\n');
  });
});

describe('install_package', () => {
  it('refuses names that could be read as options or shell syntax, before asking anyone', async () => {
    for (const name of ['--global', 'x; rm -rf ~', 'a b', '$(id)', 'left-pad@1 && curl x']) {
      expect((await call('install_package', { manager: 'npm', name })).error, name).toMatch(/not a valid npm package name/);
    }
  });
});
