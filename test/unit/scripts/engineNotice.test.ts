import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { packagesAskingNewerNode } from '../../../scripts/engineNotice.mjs';

// A plain `npm ci` on Node 20 says once which Node is needed instead of npm's five EBADENGINE lines
// per package (about fifty-five): the project's .npmrc leaves npm's warnings out, and its
// postinstall (scripts/engineNotice.mjs) says the one line. The real npm runs here, offline, on a
// project made of this repository's .npmrc, postinstall and scripts, and a local package that asks
// for Node >= 99: if the .npmrc or the postinstall went, the lines would come back and this fails.

const ROOT = join(__dirname, '..', '..', '..');
const semver = createRequire(join(ROOT, 'package.json'))('semver') as {
  satisfies(version: string, range: string, options: { includePrerelease: boolean }): boolean;
};
const satisfies = (version: string, range: string) => semver.satisfies(version, range, { includePrerelease: true });

describe('the packages that ask for a newer Node', () => {
  it('are read from the lockfile as npm checks them, each name once', () => {
    const lock = {
      packages: {
        '': { name: 'subagents', engines: { node: '>=20' } },
        'node_modules/ai': { engines: { node: '>=22' } },
        'node_modules/@ai-sdk/openai': { engines: { node: '>= 22' } },
        'node_modules/x/node_modules/ai': { engines: { node: '>=22' } },
        'node_modules/old': { engines: { node: '>=0.10' } },
        'node_modules/either': { engines: { node: '^20.19.0 || >=22.12.0' } },
        'node_modules/none': {},
        'node_modules/linked': { link: true },
        '../dep': { name: 'needs-new-node', engines: { node: '>=99' } },
      },
    };
    expect(packagesAskingNewerNode(lock, 'v20.20.2', satisfies)).toEqual([
      { name: 'ai', node: '>=22' },
      { name: '@ai-sdk/openai', node: '>= 22' },
      { name: 'needs-new-node', node: '>=99' },
    ]);
    expect(packagesAskingNewerNode(lock, 'v99.0.0', satisfies)).toEqual([]);
  });

  it("this repository's lockfile: the ai SDK's packages on Node 20, none on Node 24", () => {
    const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as Parameters<typeof packagesAskingNewerNode>[0];
    const on20 = packagesAskingNewerNode(lock, 'v20.20.2', satisfies).map((p) => p.name);
    expect(on20).toContain('ai');
    expect(on20).toContain('@vscode/vsce');
    expect(packagesAskingNewerNode(lock, 'v24.0.0', satisfies)).toEqual([]);
  });
});

describe('a plain npm install in a project with our .npmrc and postinstall (real npm, offline)', () => {
  const base = mkdtempSync(join(tmpdir(), 'engine-notice-'));
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  function project(): string {
    const dep = join(base, 'dep');
    mkdirSync(dep, { recursive: true });
    writeFileSync(join(dep, 'package.json'), JSON.stringify({ name: 'needs-new-node', version: '1.0.0', engines: { node: '>=99' } }));
    const dir = mkdtempSync(join(base, 'project-'));
    const ours = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    writeFileSync(
      join(dir, 'package.json'),
      JSON.stringify({
        name: 'uses-it',
        version: '1.0.0',
        private: true,
        dependencies: { 'needs-new-node': `file:${dep}` },
        scripts: { postinstall: ours.scripts.postinstall },
      }),
    );
    copyFileSync(join(ROOT, '.npmrc'), join(dir, '.npmrc'));
    mkdirSync(join(dir, 'scripts'));
    for (const file of ['engineNotice.mjs', 'npmInstall.mjs']) copyFileSync(join(ROOT, 'scripts', file), join(dir, 'scripts', file));
    return dir;
  }

  // engine-strict off whatever the user's npmrc says: the test is about warnings, not refusals. No
  // npm_config_loglevel from the npx that ran this: only the project's .npmrc may leave warnings out.
  const npm = (dir: string, ...args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
      execFile(
        'npm',
        ['install', '--offline', '--no-audit', '--no-fund', '--no-update-notifier', '--engine-strict=false', ...args],
        { cwd: dir, env: { ...process.env, npm_config_loglevel: undefined } },
        (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
      ),
    );

  it('says which Node the packages ask for in one line, with no EBADENGINE line', async () => {
    const r = await npm(project());
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('EBADENGINE');
    const said = r.stderr.split('\n').filter((l) => l.startsWith('npm: '));
    expect(said).toEqual([
      expect.stringMatching(/^npm: 1 package \(needs-new-node\) asks for Node >=99; this is Node v\d+\.\d+\.\d+, on which/),
    ]);
    expect(said[0]).toContain('the e2e tests on the Node 24 that scripts/setup-e2e.sh installs');
    expect(r.stdout).toMatch(/added 1 package/);
  }, 60_000);

  it('with --ignore-scripts installs all the same, and says nothing of engines', async () => {
    const r = await npm(project(), '--ignore-scripts');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('EBADENGINE');
    expect(r.stderr).not.toContain('npm: 1 package');
    expect(r.stdout).toMatch(/added 1 package/);
  }, 60_000);

  it("still shows npm's errors", async () => {
    const dir = project();
    writeFileSync(
      join(dir, 'package.json'),
      JSON.stringify({ name: 'broken', version: '1.0.0', private: true, dependencies: { 'no-such-package-here': '99.0.0' } }),
    );
    const r = await npm(dir);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/npm error/);
  }, 60_000);
});
