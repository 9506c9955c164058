import { spawnSync } from 'node:child_process';
import { chmod, chown, mkdtemp, readdir, rm, stat, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildCodeCacheProcess } from './codeCacheProcess';

// The code cache as the extension uses it: a CommonJS file loaded through V8's code cache, each
// load in a fresh node process (V8 reads a cache only when it compiles).

interface Load {
  cache: 'used' | 'rejected' | 'none';
  /** Each file loaded through the cache, and how its cache was used. */
  loads: Record<string, string>;
  problems: string[];
  answer?: unknown;
  sharesHelper?: boolean;
  /** What lazy.js's `imported()` resolved to, when it has one. */
  imported?: unknown;
  exports: string[];
}

let work: string;
let loader: string;
let dir: string;
let file: string;
let cacheDir: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'code-cache-'));
  loader = await buildCodeCacheProcess(work);
}, 60_000);

afterAll(() => rm(work, { recursive: true, force: true }));

beforeEach(async () => {
  dir = await mkdtemp(join(work, 'case-'));
  file = join(dir, 'module.js');
  cacheDir = join(dir, 'cache');
});

/**
 * A module big enough that V8 caches its code, answering `value` (the same length for every value
 * of one digit), with a bundle beside it required at load (helper.js) and one required later
 * (lazy.js), as engine.js requires its lazy bundles; and one of Node's modules.
 */
const moduleText = (value: number) =>
  `const helper = require("./helper.js");\nconst { basename } = require("node:path");\n` +
  `${Array.from({ length: 200 }, (_, i) => `function f${i}(x) { return x * ${i} + helper.base; }`).join('\n')}\n` +
  `exports.helper = helper;\n` +
  `exports.answer = () => [${value}, f7(2), basename(__filename), require("./lazy.js").later, new Error('where').stack.split('\\n')[1].trim()];\n`;

function load(options: { save?: boolean; env?: Record<string, string>; prefix?: string } = {}): Load {
  const env = {
    ...process.env,
    CODE_CACHE_FILE: file,
    CODE_CACHE_DIR: cacheDir,
    ...(options.save ? { CODE_CACHE_SAVE: '1' } : {}),
    ...options.env,
  };
  const args = options.prefix ? ['-e', `${options.prefix}\nrequire(${JSON.stringify(loader)});`] : [loader];
  const r = spawnSync(process.execPath, args, { encoding: 'utf8', env });
  if (r.status !== 0) throw new Error(`the load failed (${r.status}): ${r.stderr}`);
  return JSON.parse(r.stdout) as Load;
}

const caches = async (stem = 'module') =>
  (await readdir(cacheDir).catch(() => [] as string[])).filter((n) => n.startsWith(`${stem}-`) && n.endsWith('.v8cache'));

describe('requireWithCodeCache', () => {
  beforeEach(async () => {
    await writeFile(join(dir, 'helper.js'), 'exports.base = 1;\n');
    await writeFile(join(dir, 'lazy.js'), 'exports.later = "later";\n');
    await writeFile(file, moduleText(1));
  });

  it('loads without a cache, writes one for it and each bundle beside it, and the next process runs from them with the same results', async () => {
    const first = load({ save: true });
    expect(first.cache).toBe('none');
    expect(first.loads).toEqual({ 'module.js': 'none', 'helper.js': 'none', 'lazy.js': 'none' });
    expect(first.problems).toEqual([]);
    for (const stem of ['module', 'helper', 'lazy']) expect(await caches(stem), stem).toHaveLength(1);
    const second = load();
    expect(second.cache).toBe('used');
    expect(second.loads).toEqual({ 'module.js': 'used', 'helper.js': 'used', 'lazy.js': 'used' });
    // Its own require, __filename, and a stack that names the file's own line and column (the wrapper shifts neither).
    const lines = moduleText(1).trimEnd().split('\n');
    const where = `module.js:${lines.length}:${lines.at(-1)!.indexOf('new Error') + 1})`;
    expect(second.answer).toEqual([1, 15, 'module.js', 'later', expect.stringContaining(where)]);
    expect(second.answer).toEqual(first.answer);
  });

  it("loads each bundle once in a process, sharing it with Node's loader either way", async () => {
    const ours = load();
    expect(ours.loads['helper.js']).toBe('none');
    expect(ours.sharesHelper).toBe(true);
    const nodes = load({ env: { CODE_CACHE_PRELOAD: 'helper.js' } });
    expect(nodes.loads['helper.js']).toBeUndefined();
    expect(nodes.sharesHelper).toBe(true);
    expect((nodes.answer as unknown[])[1]).toBe(15);
  });

  it("leaves a file whose code holds import() to Node's loader, where its import() works", async () => {
    await writeFile(
      join(dir, 'lazy.js'),
      'exports.later = "later";\nexports.imported = () => import("node:path").then((m) => typeof m.join);\n',
    );
    const loaded = load({ save: true });
    expect(loaded.loads).toEqual({ 'module.js': 'none', 'helper.js': 'none', 'lazy.js': 'off' });
    expect((loaded.answer as unknown[])[3]).toBe('later');
    expect(loaded.imported).toBe('function');
    expect(await caches('lazy')).toEqual([]);
    expect(load().loads['lazy.js']).toBe('off');
  });

  it('caches a file that names import() only in its comments (a bundle built without minifying keeps them)', async () => {
    await writeFile(
      join(dir, 'lazy.js'),
      '// a comment may say `import()`\n/**\n * and so may import("./x.js") here\n */\nexports.later = "later";\n',
    );
    expect(load({ save: true }).loads['lazy.js']).toBe('none');
    expect(await caches('lazy')).toHaveLength(1);
    expect(load().loads['lazy.js']).toBe('used');
  });

  it('never offers a cache to another build of the file of the same length (V8 checks only the length)', async () => {
    load({ save: true });
    const before = await caches();
    await writeFile(file, moduleText(2));
    const changed = load({ save: true });
    expect(changed.cache).toBe('none');
    expect((changed.answer as unknown[])[0]).toBe(2);
    // The old build's cache went when the new one was written; the unchanged bundles beside it kept theirs.
    const after = await caches();
    expect(after).toHaveLength(1);
    expect(after).not.toEqual(before);
    expect(changed.loads['helper.js']).toBe('used');
    expect(load().cache).toBe('used');
  });

  it("removes what a writer killed before its rename left, and no living writer's file", async () => {
    load({ save: true });
    const [name] = await caches();
    // A pid that was a process of this machine and has ended, and one that runs (this test's).
    const ended = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
    const dead = `${name}.${ended}.tmp`;
    const alive = `${name}.${process.pid}.tmp`;
    await writeFile(join(cacheDir, dead), 'half a cache');
    await writeFile(join(cacheDir, alive), 'a cache being written');
    await writeFile(file, moduleText(3));
    load({ save: true });
    const left = await readdir(cacheDir);
    expect(left).not.toContain(dead);
    expect(left).toContain(alive);
  });

  it('loads from source when the cache is garbage, and writes a good one over it', async () => {
    load({ save: true });
    const [name] = await caches();
    await writeFile(join(cacheDir, name!), Buffer.alloc(4096, 7));
    const broken = load({ save: true });
    expect(broken.cache).toBe('rejected');
    expect((broken.answer as unknown[])[0]).toBe(1);
    expect(load().cache).toBe('used');
  });

  it('makes its folder for this user alone, and uses no cache in a folder other users can write in (V8 runs the code it finds there)', async () => {
    load({ save: true });
    expect((await stat(cacheDir)).mode & 0o777).toBe(0o700);
    // A shared folder (SUBAGENTS_CODE_CACHE=/tmp/…): someone else could have put a cache there.
    await chmod(cacheDir, 0o777);
    const shared = load({ save: true });
    expect(shared.cache).toBe('off');
    expect(shared.loads).toEqual({ 'module.js': 'off' });
    expect(shared.problems).toEqual([expect.stringMatching(/^The code cache folder .*cache is not used: other users can write in it/)]);
    expect((shared.answer as unknown[]).slice(0, 4)).toEqual([1, 15, 'module.js', 'later']);
    // Group-writable is fine: many systems give each user a group of their own (umask 002).
    await chmod(cacheDir, 0o775);
    expect(load().cache).toBe('used');
  });

  // Changing a folder's owner takes root, as CI runs.
  it.runIf(process.getuid?.() === 0)('uses no cache in a folder another user owns', async () => {
    load({ save: true });
    await chown(cacheDir, 65534, 65534);
    const foreign = load();
    expect(foreign.cache).toBe('off');
    expect(foreign.problems).toEqual([
      expect.stringMatching(/^The code cache folder .*cache is not used: it belongs to another user \(uid 65534\)/),
    ]);
    await chown(cacheDir, 0, 0);
    expect(load().cache).toBe('used');
  });

  it('says why a cache cannot be read, and still loads', async () => {
    load({ save: true });
    const [name] = await caches();
    await rm(join(cacheDir, name!));
    await mkdir(join(cacheDir, name!));
    const unreadable = load();
    expect(unreadable.cache).toBe('none');
    expect(unreadable.problems).toEqual([expect.stringMatching(/^The code cache .*module-[0-9a-f]+\.v8cache could not be read: EISDIR/)]);
    expect((unreadable.answer as unknown[])[0]).toBe(1);
  });

  it('says why caches cannot be written (their folder is a file), and the module still works', async () => {
    await writeFile(cacheDir, 'not a folder');
    const loaded = load({ save: true });
    // Each of the three files: its cache could not be read (ENOTDIR), nor written.
    expect(loaded.problems.filter((p) => /could not be read: ENOTDIR/.test(p))).toHaveLength(3);
    expect(loaded.problems.filter((p) => /could not be written: (EEXIST|ENOTDIR)/.test(p))).toHaveLength(3);
    expect(loaded.problems).toHaveLength(6);
    expect((loaded.answer as unknown[])[0]).toBe(1);
  });
});
