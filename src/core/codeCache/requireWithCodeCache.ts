import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, readdir, rename, unlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';

/**
 * How a load went: `used` (V8 took the cached code), `rejected` (a cache was there but V8 refused
 * it: another V8, other flags) or `none` (no cache yet, or none that could be read).
 */
export type CodeCacheUse = 'used' | 'rejected' | 'none';

export interface CachedModule<T> {
  exports: T;
  cache: CodeCacheUse;
  /** Why a cache on disk could not be read (it was loaded without one). */
  problem?: string;
  /**
   * Writes the code V8 has compiled so far (the top level and every function run since the load)
   * for the next process, and removes the caches of other builds of the file. Does nothing when
   * the cache was used. Call it once the module has done some work, so the cache holds that too.
   */
  save(): Promise<void>;
}

/** The wrapper Node's CommonJS loader puts around a module, on a line of its own so lines and columns stay the file's. */
const WRAPPER_HEAD = '(function (exports, require, module, __filename, __dirname) {\n';
const WRAPPER_TAIL = '\n})';

/**
 * Requires one bundle (a CommonJS file) with V8's code cache kept in `cacheDir`: a cold load
 * spends about half its time compiling (engine.js: ~40 of ~90 ms on the CI machine), which the
 * cache skips. Node's own compile cache (`module.enableCompileCache`) would serve every module of
 * the process, and the extension host is shared with other extensions; this serves one file.
 *
 * The cache is named by a hash of the file's text and the Node build: V8 checks only a source's
 * length, so the cache of another build of the file must never be offered. V8 still checks its
 * own version and flags, and a cache it refuses costs only the compile it would have done.
 *
 * The file must not use import(): a vm script has no module loader for it (the bundles turn
 * import() into require, see scripts/bundles.mjs).
 */
export function requireWithCodeCache<T>(file: string, cacheDir: string): CachedModule<T> {
  const load = createRequire(file);
  const source = readFileSync(file, 'utf8');
  const stem = basename(file, '.js');
  const key = createHash('sha256').update(source).update(`\0${process.version}\0${process.arch}`).digest('hex').slice(0, 24);
  const cachePath = join(cacheDir, `${stem}-${key}.v8cache`);
  let cachedData: Buffer | undefined;
  let problem: string | undefined;
  try {
    cachedData = readFileSync(cachePath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') problem = `The code cache ${cachePath} could not be read: ${(error as Error).message}`;
  }
  const script = new Script(`${WRAPPER_HEAD}${source}${WRAPPER_TAIL}`, {
    filename: file,
    lineOffset: -1,
    ...(cachedData ? { cachedData } : {}),
  });
  const cache: CodeCacheUse = cachedData === undefined ? 'none' : script.cachedDataRejected ? 'rejected' : 'used';
  const module = { exports: {} as unknown, filename: file, id: file, loaded: false };
  const wrapped = script.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: unknown, filename: string, dirname: string) => void;
  wrapped.call(module.exports, module.exports, load, module, file, dirname(file));
  module.loaded = true;
  let saved = false;
  return {
    exports: module.exports as T,
    cache,
    ...(problem ? { problem } : {}),
    save: async () => {
      if (cache === 'used' || saved) return;
      saved = true;
      await writeCache(cachePath, script.createCachedData(), `${stem}-`);
    },
  };
}

/** Written whole or not at all (a temp file renamed over), so a load never reads half a cache; older builds' caches go. */
async function writeCache(path: string, data: Buffer, prefix: string): Promise<void> {
  const dir = dirname(path);
  await mkdir(dir, { recursive: true });
  const temp = `${path}.${process.pid}.tmp`;
  await writeFile(temp, data);
  await rename(temp, path);
  const stale = (await readdir(dir)).filter((name) => name.startsWith(prefix) && name.endsWith('.v8cache') && join(dir, name) !== path);
  await Promise.all(stale.map((name) => unlink(join(dir, name)).catch(() => undefined)));
}
