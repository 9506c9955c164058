import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleOptions } from '../../../scripts/bundles.mjs';

// The parts of zod nothing we bundle calls, z.fromJSONSchema (JSON Schema to zod) and z.compile
// (its ahead-of-time compiled parsers), are left out of our bundles; calling them says so. Built
// with the engine bundle's own options, then run in a real node process.

let dir: string;
let inputs: string[];
let printed: { parsed: boolean; fromJsonSchema: string; compile: string };

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'zod-left-out-'));
  const { entryPoints: _entry, outdir: _out, ...engine } = bundleOptions({ production: true }).engine;
  const outfile = join(dir, 'probe.js');
  const probe = [
    "import { z } from 'zod';",
    'let fromJsonSchema = "returned";',
    "try { z.fromJSONSchema({ type: 'string' }); } catch (e) { fromJsonSchema = e.message; }",
    'let compile = "returned";',
    'try { z.compile(z.string()); } catch (e) { compile = e.message; }',
    "console.log(JSON.stringify({ parsed: z.object({ n: z.string() }).safeParse({ n: 'x' }).success, fromJsonSchema, compile }));",
  ].join('\n');
  const result = await build({
    ...engine,
    stdin: { contents: probe, resolveDir: process.cwd(), sourcefile: 'probe.ts' },
    outfile,
    logLevel: 'error',
  });
  inputs = Object.keys(result.metafile?.inputs ?? {});
  printed = JSON.parse(execFileSync(process.execPath, [outfile], { encoding: 'utf8' })) as typeof printed;
}, 60_000);

afterAll(() => rm(dir, { recursive: true, force: true }));

describe('the bundles carry zod without z.fromJSONSchema and z.compile', () => {
  it("bundles none of zod's JSON Schema reader or its compiler", () => {
    expect(inputs.filter((f) => /\/zod\/.*\/(from-json-schema|compile)\.js$/.test(f))).toEqual([]);
  });

  it('still parses, and z.fromJSONSchema and z.compile say they were left out and where', () => {
    expect(printed.parsed).toBe(true);
    expect(printed.fromJsonSchema).toMatch(/^z\.fromJSONSchema is left out of this bundle .*scripts\/bundles\.mjs/);
    expect(printed.compile).toMatch(/^z\.compile is left out of this bundle .*scripts\/bundles\.mjs/);
  });
});
