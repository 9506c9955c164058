import type * as Minimatch from 'minimatch';

let loaded: typeof Minimatch | undefined;

/**
 * minimatch (with brace-expansion), required by the first glob matched (find_files, a command's
 * glob judged against the real files) rather than when the engine loads: in the bundles it is a
 * lazily loaded bundle of its own (dist/minimatch.js, about 25 KB, see scripts/bundles.mjs). A
 * `require`, not an `import()`, because matching is synchronous.
 */
export function minimatchLibrary(): typeof Minimatch {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (loaded ??= require('minimatch') as typeof Minimatch);
}
