import { build, type Metafile } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { bundleOptions } from '../../../scripts/bundles.mjs';

// `subagents` is a small launcher (dist/cli.js) that loads the CLI (dist/cliMain.js) through V8's
// code cache, which runs it as a vm script: cliMain.js must require its lazy bundles, never
// import() them. Built in memory with the production options.

let launcher: { meta: Metafile; code: string };
let cliMain: { meta: Metafile; code: string };

beforeAll(async () => {
  const options = bundleOptions({ production: true });
  const built = async (name: 'cli' | 'cliMain') => {
    const result = await build({ ...options[name], write: false, logLevel: 'error' });
    return { meta: result.metafile!, code: result.outputFiles!.find((f) => f.path.endsWith(`${name}.js`))!.text };
  };
  [launcher, cliMain] = await Promise.all([built('cli'), built('cliMain')]);
}, 60_000);

describe('the CLI bundles', () => {
  it('cli.js is the launcher alone: a shebang, the code cache and no package', () => {
    expect(launcher.code.startsWith('#!/usr/bin/env node\n')).toBe(true);
    const packages = Object.keys(launcher.meta.inputs).filter((f) => f.includes('node_modules/'));
    expect(packages).toEqual([]);
    expect(launcher.code).toContain('cliMain.js');
    expect(launcher.code.length).toBeLessThan(16 * 1024);
  });

  it('cliMain.js requires its lazy bundles, never import()s them', () => {
    expect(cliMain.code).toContain('require("./mcp.js")');
    expect(cliMain.code).toContain('require("./yaml.js")');
    expect(cliMain.code).not.toMatch(/\bimport\s*\(/);
    expect(cliMain.code.startsWith('#!')).toBe(false);
  });
});
