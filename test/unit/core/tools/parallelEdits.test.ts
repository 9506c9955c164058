import { link, lstat, mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { verifyJudgedFile } from '../../../../src/core/platform/files/verifyJudgedFile';
import type { Script } from '../../../../src/core/models/scriptSchema';
import { nodeWorkspace } from '../../../../src/core/engine/nodeWorkspace';
import type { Workspace } from '../../../../src/core/ports';
import { makeEngine } from '../engineHarness';
import { makeWorld, runScript, supervisorCalls } from './toolWorld';

/**
 * Issue 39 item 1: a model sends several edit_file / write_file calls on one file in one step, and
 * the SDK runs them at once. Each must apply to the file as the one before left it, each reported
 * success must be on disk, and the line each reports must be where its text is now.
 */

let world: Awaited<ReturnType<typeof makeWorld>>;
beforeEach(async () => {
  world = await makeWorld();
});
afterEach(() => world.cleanup());

const at = (rel: string) => join(world.root, rel);
const edit = (path: string, oldText: string, newText: string) => ({ tool: 'edit_file', input: { path, oldText, newText } });
const write = (path: string, content: string) => ({ tool: 'write_file', input: { path, content } });

type Call = { tool: string; input: unknown };

/** The supervisor reads `read` (as a model does before it replaces a file), then makes `calls` in one step. */
async function oneStep(...calls: Call[]) {
  return readThenStep([], calls);
}

async function readThenStep(read: string[], calls: Call[]) {
  const script: Script = read.length
    ? {
        agents: {
          supervisor: [{ toolCalls: read.map((path) => ({ tool: 'read_file', input: { path } })) }, { toolCalls: calls }, { text: 'done' }],
        },
      }
    : supervisorCalls(...calls);
  const r = await runScript(script, { root: world.root, settings: { approval: 'trust' } });
  // In call order: tool.finished events come as each ends, so they are matched by their call id.
  const started = r.ofKind('tool.started').slice(read.length);
  const finished = r.ofKind('tool.finished');
  const outputs = started.map((s) => finished.find((f) => f.toolCallId === s.toolCallId)?.output);
  return { r, outputs };
}

/** A file of numbered lines; `line k` is on line k. */
const numbered = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

describe('several edits of one file in one step', () => {
  it('2 edits: both land, and each reports its line', async () => {
    await writeFile(at('a.ts'), numbered(10));
    const { outputs } = await oneStep(edit('a.ts', 'line 2\n', 'two\n'), edit('a.ts', 'line 8\n', 'eight\n'));
    expect(outputs).toEqual([
      { path: 'a.ts', line: 2 },
      { path: 'a.ts', line: 8 },
    ]);
    expect(await readFile(at('a.ts'), 'utf8')).toBe(numbered(10).replace('line 2\n', 'two\n').replace('line 8\n', 'eight\n'));
  });

  it('5 edits, some growing and some shrinking the file: all land, no stray tail, lines as the file is after the ones before', async () => {
    await writeFile(at('a.ts'), numbered(20));
    const { outputs } = await oneStep(
      edit('a.ts', 'line 3\n', 'three\nthree and a half\nthree and three quarters\n'),
      edit('a.ts', 'line 5\nline 6\nline 7\n', ''),
      edit('a.ts', 'line 10\n', 'ten\n'),
      edit('a.ts', 'line 15\n', 'a much longer fifteenth line than it was before\n'),
      edit('a.ts', 'line 20\n', ''),
    );
    // Applied in call order: +2 lines at 3, −3 lines at 5–7.
    expect(outputs).toEqual([
      { path: 'a.ts', line: 3 },
      { path: 'a.ts', line: 7 },
      { path: 'a.ts', line: 9 },
      { path: 'a.ts', line: 14 },
      { path: 'a.ts', line: 19 },
    ]);
    const expected = numbered(20)
      .replace('line 3\n', 'three\nthree and a half\nthree and three quarters\n')
      .replace('line 5\nline 6\nline 7\n', '')
      .replace('line 10\n', 'ten\n')
      .replace('line 15\n', 'a much longer fifteenth line than it was before\n')
      .replace('line 20\n', '');
    expect(await readFile(at('a.ts'), 'utf8')).toBe(expected);
  });

  it('an edit that depends on the one before it in the same step finds its text', async () => {
    await writeFile(at('a.ts'), 'const a = 1;\n');
    const { outputs } = await oneStep(edit('a.ts', 'const a = 1;', 'const a = 2;'), edit('a.ts', 'const a = 2;', 'const a = 3;'));
    expect(outputs).toEqual([
      { path: 'a.ts', line: 1 },
      { path: 'a.ts', line: 1 },
    ]);
    expect(await readFile(at('a.ts'), 'utf8')).toBe('const a = 3;\n');
  });

  it('write_file and edit_file mixed on one file: each applies to what the one before left', async () => {
    await writeFile(at('a.ts'), 'a long first version of the file\nwith a second line\n');
    const { outputs } = await readThenStep(
      ['a.ts'],
      [
        write('a.ts', 'short\nend\n'),
        edit('a.ts', 'end\n', 'end\nmore\n'),
        write('b.ts', 'b one\n'),
        edit('b.ts', 'b one', 'b two'),
        write('a.ts', 'last\n'),
      ],
    );
    expect(outputs).toEqual([
      { path: 'a.ts', created: false, chars: 10 },
      { path: 'a.ts', line: 2 },
      { path: 'b.ts', created: true, chars: 6 },
      { path: 'b.ts', line: 1 },
      { path: 'a.ts', created: false, chars: 5 },
    ]);
    expect(await readFile(at('a.ts'), 'utf8')).toBe('last\n');
    expect(await readFile(at('b.ts'), 'utf8')).toBe('b two\n');
  });

  it('one file named four ways (a.ts, ./a.ts, sub/../a.ts, through a symlinked folder) is one file', async () => {
    await writeFile(at('a.ts'), numbered(8));
    await mkdir(at('sub'));
    await symlink('.', at('here'));
    const { outputs } = await oneStep(
      edit('a.ts', 'line 1\n', 'one\none and a bit\n'),
      edit('./a.ts', 'line 3\n', 'three\n'),
      edit('sub/../a.ts', 'line 5\n', ''),
      edit('here/a.ts', 'line 8\n', 'eight\n'),
    );
    expect(outputs).toEqual([
      { path: 'a.ts', line: 1 },
      { path: 'a.ts', line: 4 },
      { path: 'a.ts', line: 6 },
      { path: 'a.ts', line: 8 },
    ]);
    expect(await readFile(at('a.ts'), 'utf8')).toBe('one\none and a bit\nline 2\nthree\nline 4\nline 6\nline 7\neight\n');
  });

  it('an edit that no longer applies after the one before fails, and the others land', async () => {
    await writeFile(at('a.ts'), 'x = 1\ny = 2\n');
    const { outputs } = await oneStep(
      edit('a.ts', 'x = 1', 'x = 10'),
      edit('a.ts', 'x = 1\n', 'x = 100\n'),
      edit('a.ts', 'y = 2', 'y = 20'),
    );
    expect(outputs[0]).toEqual({ path: 'a.ts', line: 1 });
    expect((outputs[1] as { error: string }).error).toMatch(/not found in a.ts/);
    expect(outputs[2]).toEqual({ path: 'a.ts', line: 2 });
    expect(await readFile(at('a.ts'), 'utf8')).toBe('x = 10\ny = 20\n');
  });
});

describe('edits across many files at once', () => {
  it('20 files, 3 edits each, in one step: every edit lands', async () => {
    const files = Array.from({ length: 20 }, (_, i) => `src/f${i}.ts`);
    await mkdir(at('src'));
    for (const f of files) await writeFile(at(f), numbered(6));
    const calls = files.flatMap((f) => [
      edit(f, 'line 1\n', 'first\nfirst again\n'),
      edit(f, 'line 4\n', 'fourth\n'),
      edit(f, 'line 6\n', 'sixth\n'),
    ]);
    const { outputs } = await oneStep(...calls);
    expect(outputs).toEqual(
      files.flatMap((path) => [
        { path, line: 1 },
        { path, line: 5 },
        { path, line: 7 },
      ]),
    );
    for (const f of files) expect(await readFile(at(f), 'utf8'), f).toBe('first\nfirst again\nline 2\nline 3\nfourth\nline 5\nsixth\n');
  });
});

describe('what one step of edits keeps and refuses', () => {
  it('a script edited and rewritten in one step stays executable', async () => {
    await writeFile(at('run.sh'), '#!/bin/sh\necho one\n', { mode: 0o755 });
    const { outputs } = await readThenStep(
      ['run.sh'],
      [edit('run.sh', 'echo one', 'echo two'), write('run.sh', '#!/bin/sh\necho three\n'), edit('run.sh', 'three', 'four')],
    );
    expect(outputs.every((o) => !(o as { error?: string }).error)).toBe(true);
    expect(await readFile(at('run.sh'), 'utf8')).toBe('#!/bin/sh\necho four\n');
    expect((await lstat(at('run.sh'))).mode & 0o777).toBe(0o755);
  });

  it('a file with a second name outside the workspace (a hard link) is refused, and the outside file is untouched', async () => {
    const outside = join(world.sibling, 'shared.ts');
    await writeFile(outside, 'const shared = 1;\n');
    await link(outside, at('shared.ts'));
    const { outputs } = await oneStep(
      edit('shared.ts', 'const shared = 1;', 'pwned'),
      edit('./shared.ts', 'shared', 'pwned'),
      write('shared.ts', 'pwned'),
    );
    for (const output of outputs) expect((output as { error: string }).error).toMatch(/hard link/);
    expect(await readFile(outside, 'utf8')).toBe('const shared = 1;\n');
  });
});

describe('one file under other names (issue 40 item 7, red team)', () => {
  it('an absolute path, a file symlink and a symlinked folder name the one file: every edit lands', async () => {
    await writeFile(at('a.ts'), numbered(6));
    await symlink('a.ts', at('alias.ts'));
    await symlink('.', at('here'));
    const { outputs } = await oneStep(
      edit(at('a.ts'), 'line 1\n', 'one\n'),
      edit('alias.ts', 'line 2\n', 'two\n'),
      edit('here/here/a.ts', 'line 4\n', 'four\n'),
      edit('here/alias.ts', 'line 6\n', 'six\n'),
    );
    for (const output of outputs) expect(output).not.toHaveProperty('error');
    expect(await readFile(at('a.ts'), 'utf8')).toBe('one\ntwo\nline 3\nfour\nline 5\nsix\n');
    expect((await lstat(at('alias.ts'))).isSymbolicLink()).toBe(true);
  });

  it('a file that does not exist yet, created under one name and edited under another in the same step: the edit finds it', async () => {
    await mkdir(at('src'));
    await symlink('src', at('source'));
    const { outputs } = await oneStep(
      write('src/new.ts', 'export const a = 1;\n'),
      edit('source/new.ts', 'a = 1', 'a = 2'),
      edit('./src/../source/./new.ts', 'a = 2', 'a = 3'),
    );
    for (const output of outputs) expect(output).not.toHaveProperty('error');
    expect(await readFile(at('src/new.ts'), 'utf8')).toBe('export const a = 3;\n');
  });
});

describe('the editor path', () => {
  it('edits of a file open in an editor (written through the Workspace port as a WorkspaceEdit, not writeInside) take turns too', async () => {
    await writeFile(at('open.ts'), numbered(6));
    // The editor's side of the port, as vscodeWorkspace.ts does it: reads give the buffer, a write
    // replaces the buffer a moment later (the edit is applied asynchronously), then saves it.
    const documents = new Map<string, string>([[at('open.ts'), numbered(6)]]);
    const disk = nodeWorkspace({ root: world.root });
    const editor: Workspace = {
      ...disk,
      readFile: async (path) => documents.get(path) ?? disk.readFile(path),
      async writeFile(path, content, expected) {
        if (!documents.has(path) || !expected) return disk.writeFile(path, content, expected);
        await verifyJudgedFile(world.root, path, expected);
        await new Promise((resolve) => setImmediate(resolve));
        documents.set(path, content);
        await writeFile(path, content);
      },
    };
    const h = makeEngine(
      supervisorCalls(
        edit('open.ts', 'line 2\n', 'two\n'),
        edit('open.ts', 'line 4\n', 'four\nfour more\n'),
        edit('open.ts', 'line 6\n', 'six\n'),
      ),
      {
        workspace: editor,
        settings: { approval: 'trust' },
      },
    );
    const { threadId, done } = await h.engine.send({ prompt: 'go' });
    await done;
    await h.engine.whenQuiet(threadId);
    const outputs = h.events.filter((e) => e.kind === 'tool.finished').map((e) => (e as { output: unknown }).output);
    expect(outputs).toEqual([
      { path: 'open.ts', line: 2 },
      { path: 'open.ts', line: 4 },
      { path: 'open.ts', line: 7 },
    ]);
    const expected = 'line 1\ntwo\nline 3\nfour\nfour more\nline 5\nsix\n';
    expect(documents.get(at('open.ts'))).toBe(expected);
    expect(await readFile(at('open.ts'), 'utf8')).toBe(expected);
  });
});
