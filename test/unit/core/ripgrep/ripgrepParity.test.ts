import { mkdir, symlink, writeFile } from 'node:fs/promises';
import type { z } from 'zod';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../../../src/core/engineSettings';
import { nodeWorkspace } from '../../../../src/core/nodeAdapters/nodeWorkspace';
import { ripgrepOnPath } from '../../../../src/core/ripgrep/locateRipgrep';
import { ripgrepCandidates, workspaceFiles } from '../../../../src/core/ripgrep/ripgrepSources';
import { FileChanges } from '../../../../src/core/changes/fileChanges';
import { MemorySnapshotStore } from '../../../../src/core/changes/snapshotStore';
import { commandLauncher } from '../../../../src/core/sandbox/commandLauncher';
import { secretFileReason } from '../../../../src/core/secrets/secretFiles';
import type { ApprovalGate } from '../../../../src/core/tools/approvalGate';
import type { ToolCallContext } from '../../../../src/core/tools/toolSpec';
import { workspaceTools } from '../../../../src/core/tools/workspaceTools';
import { makeWorld } from '../tools/toolWorld';

/**
 * search_text and find_files answer the same with ripgrep as with their own walker, on a tree
 * made to trip a lister up: nested .gitignore rules with negations, hidden files, a `.git` folder
 * and a `.git` file, binary files (a NUL early and late), links out of the workspace, a long
 * line with a match past what the matcher tests, CRLF line ends, files that may hold secrets.
 */
const rg = ripgrepOnPath();
let world: Awaited<ReturnType<typeof makeWorld>>;

async function put(rel: string, content: string | Buffer) {
  await mkdir(join(world.root, rel, '..'), { recursive: true });
  await writeFile(join(world.root, rel), content);
}

beforeAll(async () => {
  world = await makeWorld();
  await put('.gitignore', 'build/\n*.log\n!keep.log\n/rootonly.txt\n');
  await put('rootonly.txt', 'needle root only\n');
  await put('keep.log', 'needle kept log\n');
  await put('drop.log', 'needle dropped log\n');
  await put('build/out.js', 'needle built\n');
  await put('src/.gitignore', 'gen/\n!important.gen.ts\n*.gen.ts\n');
  await put('src/gen/x.ts', 'needle generated\n');
  await put('src/a.gen.ts', 'needle gen\n');
  await put('src/rootonly.txt', 'needle not root\n');
  await put('src/main.ts', 'import { Needle } from "./needle";\nconst needle = new Needle();\n// NEEDLE in caps\n');
  await put('src/needle.ts', 'export class Needle {}\nfunction findNeedle() { return "xneedle"; }\n');
  await put('src/deep/deeper/file.md', '# Needle\nA needle in a haystack.\nafter needle\n');
  await put('src/z.txt', 'needle after folders\n');
  await put('.hidden/config', 'needle hidden\n');
  await put('.env', 'NEEDLE_TOKEN=needle-secret-value\n');
  await put('keys/server.pem', 'needle pem\n');
  await put('.git/HEAD', 'needle in git\n');
  await put('sub/.git', 'gitdir: ../.git/modules/sub needle\n');
  await put('sub/file.txt', 'needle in sub\n');
  await put('bin/early.bin', Buffer.concat([Buffer.from('needle\u0000binary\n')]));
  await put('bin/late.bin', Buffer.concat([Buffer.from(`${'x'.repeat(9000)}\n`), Buffer.from([0]), Buffer.from('\nneedle late binary\n')]));
  await put('long/line.txt', `${'a'.repeat(12_000)}needle far\nneedle near ${'b'.repeat(20_000)}\n`);
  await put('crlf/win.txt', 'first needle\r\nends needle\r\nthird\r\n');
  await put('unicode/é.txt', 'ünïcödé needle Straße\n');
  await put('zmany/hits.txt', Array.from({ length: 300 }, (_, i) => `needle ${i}`).join('\n'));
  await put('empty.txt', '');
  await symlink(join(world.sibling, 'secret.txt'), join(world.root, 'outside-link.txt'));
  await symlink(world.sibling, join(world.root, 'outside-dir'));
  await symlink(join(world.root, 'src', 'main.ts'), join(world.root, 'inside-link.ts'));
});
afterAll(() => world.cleanup());

const secretsAsk: ApprovalGate = { check: async () => ({ ok: true, asked: false }), readAsks: (path) => secretFileReason(path) !== undefined };
const context = (): ToolCallContext => ({ runId: 'r', threadId: 't', toolCallId: 'c', signal: new AbortController().signal });

async function call(withRipgrep: boolean, name: string, input: unknown) {
  const workspace = nodeWorkspace({ root: world.root, ...(withRipgrep ? { ripgrep: rg! } : {}) });
  const commands = commandLauncher(world.root, { ...DEFAULT_SETTINGS, 'sandbox.mode': 'off' }, () => {});
  const spec = workspaceTools({ workspace, gate: secretsAsk, agent: 'test', commands, files: new FileChanges(new MemorySnapshotStore()).forRun({ runId: 'r', agent: 'test', workspace, emit: () => {} }) }).find((t) => t.name === name)!;
  return (await spec.execute((spec.inputSchema as z.ZodType).parse(input), context())) as { matches?: string[]; files?: string[]; note?: string; error?: string };
}

describe('ripgrep and the walker agree', () => {
  it('has ripgrep to compare with (scripts/setup-e2e.sh installs Debian\'s ripgrep)', () => {
    expect(rg, 'no rg on the PATH: run `bash scripts/setup-e2e.sh` or `apt-get install ripgrep`').toBeDefined();
  });

  const searches: Record<string, unknown>[] = [
    { pattern: 'needle' },
    { pattern: 'needle', caseSensitive: true },
    { pattern: '^needle' },
    { pattern: 'needle$' },
    { pattern: 'ends needle$' },
    { pattern: 'Needle|haystack', caseSensitive: true },
    { pattern: 'stra(ss|ß)e' },
    { pattern: 'n\\w+dle \\d+' },
    { pattern: 'needle', glob: 'src/**/*.ts' },
    { pattern: 'needle far' },
    { pattern: 'needle late' },
    { pattern: 'sibling secret' },
    { pattern: 'secret-value' },
    { pattern: 'nothing matches this' },
    { pattern: '(?<=x)needle' },
    { pattern: '\\bneedle\\b' },
    { pattern: '[[:alpha:]]eedle' },
  ];
  for (const input of searches) {
    it(`search_text ${JSON.stringify(input)}`, async () => {
      const walked = await call(false, 'search_text', input);
      const ripped = await call(true, 'search_text', input);
      expect(ripped.matches).toEqual(walked.matches);
      expect(ripped.error).toEqual(walked.error);
    });
  }

  it('finds what the walker finds, and leaves out what it leaves out', async () => {
    const { matches } = await call(true, 'search_text', { pattern: 'needle' });
    const files = new Set(matches!.map((m) => m.split(':', 1)[0]));
    for (const present of ['keep.log', 'src/main.ts', 'src/rootonly.txt', '.hidden/config', 'sub/.git', 'crlf/win.txt', 'long/line.txt', 'src/z.txt', 'bin/late.bin']) expect(files).toContain(present);
    for (const absent of ['rootonly.txt', 'drop.log', 'build/out.js', 'src/gen/x.ts', 'src/a.gen.ts', '.env', 'keys/server.pem', '.git/HEAD', 'bin/early.bin', 'outside-link.txt', 'inside-link.ts'])
      expect(files).not.toContain(absent);
    expect(matches).toContain('crlf/win.txt:2: ends needle');
    expect(matches!.length).toBe(200);
  });

  it('really asks ripgrep, except for patterns only JavaScript reads right', async () => {
    const deps = { workspace: { root: world.root, ripgrep: rg! }, commands: { environment: () => ({ PATH: process.env.PATH ?? '' }) } };
    const signal = new AbortController().signal;
    const query = { caseSensitive: false, maxFileBytes: 2 * 1024 * 1024 };
    expect(await ripgrepCandidates(deps, { ...query, pattern: 'needle far' }, signal, 10_000)).toEqual(['long/line.txt']);
    expect(await ripgrepCandidates(deps, { ...query, pattern: 'needle late' }, signal, 10_000)).toEqual(['bin/late.bin']);
    expect(await ripgrepCandidates(deps, { ...query, pattern: '(?<=x)needle' }, signal, 10_000)).toBeUndefined();
    // A pattern ripgrep refuses: the walker answers.
    expect(await ripgrepCandidates(deps, { ...query, pattern: 'a\\/b' }, signal, 10_000)).toBeUndefined();
    const walk = await workspaceFiles({ ...deps, workspace: { root: world.root, ripgrep: join(world.root, 'no-such-rg') } }, signal, 10, 10_000);
    expect((await walk.next()).value).toBe('.env');
  });

  for (const pattern of ['*', '**/*', '*.txt', 'src/**', '.*', '**/.git', '*.bin']) {
    it(`find_files ${pattern}`, async () => {
      expect(await call(true, 'find_files', { pattern })).toEqual(await call(false, 'find_files', { pattern }));
    });
  }
});
