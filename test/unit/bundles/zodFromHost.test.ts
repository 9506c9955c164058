import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LAZY_BUNDLES, type LazyBundleName } from '../../../scripts/bundles.mjs';
import { buildBesideEngine, runNode, type BesideEngine } from './besideEngine';

// The lazy bundles built with zodFromHost (the ai SDK's run machinery, the vendors' clients) take
// zod from the bundle that loads them (engine.js, cliMain.js: src/core/models/sharedZod.ts) instead
// of carrying a copy. Each is built with the production options beside engine.js. What each does
// with that zod is tested with the bundle (aiSdkBundle.test.ts, modelClientsBundle.test.ts).

const sharing = (Object.keys(LAZY_BUNDLES) as LazyBundleName[]).filter((name) => LAZY_BUNDLES[name].zodFromHost);
let built: BesideEngine;

beforeAll(async () => {
  built = await buildBesideEngine(sharing);
}, 60_000);

afterAll(() => rm(built.dir, { recursive: true, force: true }));

describe('the lazy bundles that take zod from their host', () => {
  it('are the ai SDK and the vendors’ clients', () => {
    expect(sharing).toEqual(expect.arrayContaining(['aiSdk', 'modelClients']));
  });

  it.each(sharing)('%s carries no zod of its own', (name) => {
    const inputs = Object.keys(built.meta[name]!.inputs);
    expect(inputs.some((f) => f.endsWith(LAZY_BUNDLES[name].entry))).toBe(true);
    expect(inputs.filter((f) => f.includes('node_modules/zod/'))).toEqual([]);
  });

  it.each(sharing)('%s says what it needs when no bundle of ours loaded zod before it', (name) => {
    const r = runNode(`require(${JSON.stringify(join(built.dir, `${name}.js`))});`);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain(`${name}.js takes zod from the bundle that loads it`);
  });
});
