import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineWarnings, runNpm } from '../../../scripts/npmInstall.mjs';

// `npm test` and `npm run demo` install with `npm ci` through runNpm: on Node 20 the ai SDK's and
// vsce's engine warnings (five lines per package, about fifty) become one line that says which
// Node runs what; every other line of npm's goes through.

/** npm 10/11's warning for one package, as it prints it. */
const warning = (pkg: string, node: string, prefix = 'npm warn'): string[] => [
  `${prefix} EBADENGINE Unsupported engine {`,
  `${prefix} EBADENGINE   package: '${pkg}',`,
  `${prefix} EBADENGINE   required: { node: '${node}' },`,
  `${prefix} EBADENGINE   current: { node: 'v20.20.2', npm: '10.8.2' }`,
  `${prefix} EBADENGINE }`,
];

describe("npm's engine warnings", () => {
  it('are left out and named once each, while every other line goes through', () => {
    const w = engineWarnings();
    const stderr = [
      ...warning('ai@7.0.173', '>=22'),
      'npm warn deprecated inflight@1.0.6: This module is not supported',
      ...warning('@ai-sdk/provider-utils@5.0.81', '>=22'),
      ...warning('@vscode/vsce@4.1.0', '>= 22'),
      // The same package twice (a link and its target): named once.
      ...warning('ai@7.0.173', '>=22'),
      // npm 9 wrote WARN; a colour code before it is no disguise.
      ...warning('@azure/identity@4.13.0', '>=22.0.0', '\u001b[33mnpm WARN\u001b[39m'),
    ];
    const shown = stderr.map((l) => w.line(l)).filter((l) => l !== undefined);
    expect(shown).toEqual(['npm warn deprecated inflight@1.0.6: This module is not supported']);
    expect(w.packages()).toEqual([
      { name: 'ai', node: '>=22' },
      { name: '@ai-sdk/provider-utils', node: '>=22' },
      { name: '@vscode/vsce', node: '>=22' },
      { name: '@azure/identity', node: '>=22.0.0' },
    ]);
    const summary = w.summary('v20.20.2')!;
    expect(summary.split('\n')).toHaveLength(1);
    expect(summary).toMatch(
      /^npm: 4 packages \(ai, @ai-sdk\/provider-utils, @vscode\/vsce, @azure\/identity\) ask for Node >=22 or >=22\.0\.0; this is Node v20\.20\.2/,
    );
    expect(summary).toContain('the e2e tests on the Node 24 that scripts/setup-e2e.sh installs');
  });

  it('say nothing when npm warned of no engine', () => {
    const w = engineWarnings();
    expect(w.line('added 400 packages in 12s')).toBe('added 400 packages in 12s');
    expect(w.summary('v20.20.2')).toBeUndefined();
  });
});

describe('runNpm over the real npm (offline, a local package that asks for Node >= 99)', () => {
  const base = mkdtempSync(join(tmpdir(), 'npm-install-'));
  // Run through npx or npm run, this process has the project's .npmrc as npm_config_loglevel=error,
  // which the npm below would take: the warnings runNpm condenses would not come.
  const loglevel = process.env.npm_config_loglevel;
  beforeAll(() => void delete process.env.npm_config_loglevel);
  afterAll(() => {
    if (loglevel !== undefined) process.env.npm_config_loglevel = loglevel;
    rmSync(base, { recursive: true, force: true });
  });

  function project(name: string, dependency: string): string {
    const dir = join(base, name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'package.json'),
      JSON.stringify({ name, version: '1.0.0', private: true, dependencies: { 'needs-new-node': dependency } }),
    );
    return dir;
  }
  const collect = () => {
    const stream = new PassThrough();
    let text = '';
    stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
    return { stream, text: () => text };
  };
  // engine-strict off here whatever the user's npmrc says: the test is about warnings, not refusals.
  const npmArgs = ['install', '--offline', '--no-audit', '--no-fund', '--no-update-notifier', '--engine-strict=false'];

  it('installs it, and says once what npm warned five lines (twice) about', async () => {
    const dep = join(base, 'dep');
    mkdirSync(dep, { recursive: true });
    writeFileSync(join(dep, 'package.json'), JSON.stringify({ name: 'needs-new-node', version: '1.0.0', engines: { node: '>=99' } }));
    const dir = project('uses-it', 'file:../dep');
    const out = collect();
    const err = collect();
    const code = await runNpm(npmArgs, { cwd: dir, out: out.stream, err: err.stream, nodeVersion: 'v20.20.2' });
    expect(code).toBe(0);
    expect(existsSync(join(dir, 'node_modules', 'needs-new-node', 'package.json'))).toBe(true);
    expect(err.text()).not.toContain('EBADENGINE');
    const said = err
      .text()
      .split('\n')
      .filter((l) => l.startsWith('npm: '));
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(/^npm: 1 package \(needs-new-node\) asks for Node >=99; this is Node v20\.20\.2/);
    expect(out.text()).toMatch(/added 1 package/);
  }, 60_000);

  it("lets npm's errors through, and returns its exit code", async () => {
    // Offline, a version in no cache cannot be had: npm fails without asking the registry.
    const dir = project('broken', '99.0.0');
    const err = collect();
    const code = await runNpm(npmArgs, { cwd: dir, out: collect().stream, err: err.stream });
    expect(code).not.toBe(0);
    expect(err.text()).toMatch(/npm error/);
  }, 60_000);
});
