import type * as Yaml from 'yaml';

let loaded: typeof Yaml | undefined;

/**
 * The `yaml` package, required on the first agent file read rather than when the engine loads: in
 * the bundles it is a lazily loaded bundle of its own (dist/yaml.js, about 110 KB, see
 * scripts/bundles.mjs), which a window with no agent file never loads. A `require`, not an
 * `import()`, because the profiles are read synchronously (the configuration is read in one go).
 */
export function yamlLibrary(): typeof Yaml {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (loaded ??= require('yaml') as typeof Yaml);
}
