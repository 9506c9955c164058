import { createHash } from 'node:crypto';
import { readFileSync, statSync, type Stats } from 'node:fs';
import { mkdir, readdir, rename, unlink, writeFile } from 'node:fs/promises';
import { Module, createRequire } from 'node:module';
import { basename, dirname, join, resolve } from 'node:path';
import { Script } from 'node:vm';
import { isProcessAlive } from '../files/fileLock';

/**
 * How a load went: `used` (V8 took the cached code), `rejected` (a cache was there but V8 refused
 * it: another V8, other flags), `none` (no cache yet, or none that could be read) or `off` (Node's
 * loader required it: there is no cache folder, the folder is one other users could have put a
 * cache in, or the file's code holds import(), which a vm script cannot run).
 */
export type CodeCacheUse = 'used' | 'rejected' | 'none' | 'off';

export interface CodeCacheOptions {
  /** Where the caches are kept (made when the first is written); undefined: nowhere, Node's loader requires the file. */
  cacheDir: string | undefined;
  /**
   * How long after a file loads its cache is written: the code run by then (the first request,
   * the first model call) is compiled, and goes into the cache too. The timer does not hold the
   * process open. Unset: only flush() writes (a short-lived process, before it exits). A cache
   * that was used is not written again.
   */
  saveAfterMs?: number;
  /** Told of every file loaded (the one asked for, and each bundle beside it that it requires). */
  onLoad?(file: string, cache: CodeCacheUse, ms: number): void;
  /** Told when a cache could not be read or written; the file loads (and works) without it. */
  onProblem(message: string): void;
}

export interface CachedModule<T> {
  exports: T;
  cache: CodeCacheUse;
}

export interface CachedRequire<T> extends CachedModule<T> {
  /** Writes every cache still waiting for its time now (and resolves when they are written or reported). */
  flush(): Promise<void>;
}

/** A cache waiting for its time: the timer (none when only flush() writes), and the write it will do. */
interface PendingSave {
  timer: NodeJS.Timeout | undefined;
  write(): Promise<void>;
}

/** The wrapper Node's CommonJS loader puts around a module, on a line of its own so lines and columns stay the file's. */
const WRAPPER_HEAD = '(function (exports, require, module, __filename, __dirname) {\n';
const WRAPPER_TAIL = '\n})';

type Wrapped = (exports: unknown, require: NodeJS.Require, module: unknown, filename: string, dirname: string) => void;

/**
 * Requires one bundle (a CommonJS file) with V8's code cache kept in `cacheDir`, and the bundles
 * beside it that it requires (`require("./mcp.js")`, its lazy parts) the same way: a cold load
 * spends about half its time compiling (engine.js: ~40 of ~90 ms on the CI machine), which the
 * cache skips. Node's own compile cache (`module.enableCompileCache`) would serve every module of
 * the process, and the extension host is shared with other extensions; this serves our bundles.
 *
 * A cache is named by a hash of its file's text and the Node build: V8 checks only a source's
 * length, so the cache of another build of the file must never be offered. V8 still checks its
 * own version and flags, and a cache it refuses costs only the compile it would have done.
 *
 * A file whose code holds import() is required by Node's loader instead: a vm script has no
 * module loader for it (engine.js requires its lazy bundles, see scripts/bundles.mjs).
 */
export function requireWithCodeCache<T>(file: string, options: CodeCacheOptions): CachedRequire<T> {
  const { cacheDir } = options;
  const unsafe = cacheDir === undefined ? undefined : unsafeFolder(cacheDir);
  if (unsafe)
    options.onProblem(`The code cache folder ${cacheDir} is not used: ${unsafe}, and V8 would run the code of any cache found there`);
  if (cacheDir === undefined || unsafe)
    return { ...(requiredByNode(file, options, performance.now()) as CachedModule<T>), flush: async () => {} };
  const pending = new Map<string, PendingSave>();
  const { exports, cache } = loadOne(file, cacheDir, options, pending) as CachedModule<T>;
  return {
    exports,
    cache,
    flush: async () => {
      const saves = [...pending.values()];
      pending.clear();
      for (const save of saves) clearTimeout(save.timer);
      await Promise.all(saves.map((save) => save.write()));
    },
  };
}

function loadOne(file: string, cacheDir: string, options: CodeCacheOptions, pending: Map<string, PendingSave>): CachedModule<unknown> {
  const started = performance.now();
  const here = dirname(file);
  const plain = createRequire(file);
  // A bundle beside this one goes through the cache too, once per process: unless Node's loader has
  // it already (loaded here, or required as usual by another of our bundles). Anything else
  // (Node's modules, vscode) is required as usual.
  const sibling = (path: string): unknown =>
    plain.cache[path] ? plain.cache[path].exports : loadOne(path, cacheDir, options, pending).exports;
  const require = Object.assign((id: string) => (/^\.\/[^/]+\.js$/.test(id) ? sibling(resolve(here, id)) : plain(id)), {
    resolve: plain.resolve,
    cache: plain.cache,
    main: plain.main,
    extensions: plain.extensions,
  }) as NodeJS.Require;
  const source = readFileSync(file, 'utf8');
  if (holdsImport(source)) return requiredByNode(file, options, started);
  const stem = basename(file, '.js');
  const key = createHash('sha256').update(source).update(`\0${process.version}\0${process.arch}`).digest('hex').slice(0, 24);
  const cachePath = join(cacheDir, `${stem}-${key}.v8cache`);
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cachePath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
      options.onProblem(`The code cache ${cachePath} could not be read: ${(error as Error).message}`);
  }
  const script = new Script(`${WRAPPER_HEAD}${source}${WRAPPER_TAIL}`, {
    filename: file,
    lineOffset: -1,
    ...(cachedData ? { cachedData } : {}),
  });
  const cache: CodeCacheUse = cachedData === undefined ? 'none' : script.cachedDataRejected ? 'rejected' : 'used';
  // Known to Node's loader as it would know a file it loaded itself: another bundle's plain require of this file gets this instance.
  const module = new Module(file);
  module.filename = file;
  plain.cache[file] = module;
  try {
    (script.runInThisContext() as Wrapped).call(module.exports, module.exports, require, module, file, here);
  } catch (error) {
    delete plain.cache[file];
    throw error;
  }
  module.loaded = true;
  options.onLoad?.(file, cache, performance.now() - started);
  if (cache !== 'used') {
    const write = () =>
      writeCache(cachePath, script.createCachedData(), `${stem}-`).catch((error: unknown) =>
        options.onProblem(`The code cache ${cachePath} could not be written: ${(error as Error).message}`),
      );
    const timer =
      options.saveAfterMs === undefined
        ? undefined
        : setTimeout(() => {
            pending.delete(file);
            void write();
          }, options.saveAfterMs).unref();
    pending.set(file, { timer, write });
  }
  return { exports: module.exports as unknown, cache };
}

/** The file required as Node's loader requires it, with no cache. */
function requiredByNode(file: string, options: CodeCacheOptions, started: number): CachedModule<unknown> {
  const exports: unknown = createRequire(file)(file);
  options.onLoad?.(file, 'off', performance.now() - started);
  return { exports, cache: 'off' };
}

/**
 * Why the caches in `dir` must not be read, on systems with file modes: V8 checks a cache's
 * versions and length, not who wrote it, so a cache is code this process will run. A folder another
 * user owns, or one anyone may write in (a shared /tmp folder named by a setting), could hold a
 * planted one. Group-writable is allowed: many systems give each user a group of their own. A
 * folder not there yet is made by the first write, for this user alone.
 */
function unsafeFolder(dir: string): string | undefined {
  if (process.platform === 'win32' || !process.getuid) return undefined;
  let folder: Stats;
  try {
    folder = statSync(dir);
  } catch {
    return undefined;
  }
  if (folder.uid !== process.getuid()) return `it belongs to another user (uid ${folder.uid})`;
  if (folder.mode & 0o002) return 'other users can write in it';
  return undefined;
}

/**
 * Whether the file's code may call import(). A line that is a comment (`//`, or a doc comment's `*`
 * line, as a bundle built without minifying keeps them) does not count; a string or a comment
 * within a line of code does, where it only costs the file its cache.
 */
function holdsImport(source: string): boolean {
  for (const match of source.matchAll(/\bimport\s*\(/g)) {
    const line = source.slice(source.lastIndexOf('\n', match.index) + 1, match.index).trimStart();
    if (!line.startsWith('//') && !line.startsWith('*')) return true;
  }
  return false;
}

/**
 * Written whole or not at all (a temp file renamed over), so a load never reads half a cache.
 * Older builds' caches go, and the temp files of writers that died before their rename.
 */
async function writeCache(path: string, data: Buffer, prefix: string): Promise<void> {
  const dir = dirname(path);
  // For this user alone (see unsafeFolder); folders above it that it makes too.
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const temp = `${path}.${process.pid}.tmp`;
  await writeFile(temp, data);
  await rename(temp, path);
  const stale = (await readdir(dir)).filter((name) => {
    if (!name.startsWith(prefix)) return false;
    if (name.endsWith('.v8cache')) return join(dir, name) !== path;
    const writer = /\.v8cache\.(\d+)\.tmp$/.exec(name)?.[1];
    return writer !== undefined && !isProcessAlive(Number(writer));
  });
  await Promise.all(stale.map((name) => unlink(join(dir, name)).catch(() => undefined)));
}
