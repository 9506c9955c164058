import { chmod, mkdir, symlink, writeFile } from 'node:fs/promises';
import type { z } from 'zod';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../../../src/core/config/settings/engineSettings';
import { nodeWorkspace } from '../../../../src/core/engine/nodeWorkspace';
import { ripgrepOnPath } from '../../../../src/core/tools/search/ripgrep/locateRipgrep';
import { setProcessLauncherEnabled, sharedProcessLauncher } from '../../../../src/core/platform/processLauncher/sharedLauncher';
import { ripgrepListing, ripgrepPrefilter } from '../../../../src/core/tools/search/ripgrep/ripgrepSources';
import { FileChanges } from '../../../../src/core/changes/attribution/fileChanges';
import { MemorySnapshotStore } from '../../../../src/core/changes/attribution/snapshotStore';
import { commandLauncher } from '../../../../src/core/access/sandbox/commandLauncher';
import { secretFileReason } from '../../../../src/core/access/secrets/secretFiles';
import type { ApprovalGate } from '../../../../src/core/tools/approvalGate';
import type { ToolCallContext } from '../../../../src/core/tools/toolSpec';
import { findFilesTool } from '../../../../src/core/tools/builtin/findFiles';
import { searchTextTool } from '../../../../src/core/tools/builtin/searchText';
import { workspaceTools } from '../../../../src/core/tools/workspaceTools';
import { makeWorld } from '../tools/toolWorld';

/**
 * search_text and find_files answer the same with ripgrep as with their own walker, on a tree
 * made to trip a lister up: nested .gitignore rules with negations, hidden files, a `.git` folder
 * and a `.git` file, binary files (a NUL early and late), links out of the workspace, a long
 * line with a match past what the matcher tests, CRLF line ends, files that may hold secrets.
 */
const rg = ripgrepOnPath();
/** Caps small enough that this tree reaches them (the tools' own are 200,000 files, 2 MB, 200 matches, 500 names). */
const SMALL = { maxVisited: 12, maxFileBytes: 200, maxMatches: 200, maxResults: 500 };
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
  // The matcher tests a long line's first 10,000 characters: `needle$` matches where they end, not where the line does.
  await put('long/cut.txt', `${'x'.repeat(9_994)}needle${'z'.repeat(3)}\n`);
  await put('crlf/win.txt', 'first needle\r\nends needle\r\nthird\r\n');
  await put('unicode/é.txt', 'ünïcödé needle Straße\n');
  await put('zmany/hits.txt', Array.from({ length: 300 }, (_, i) => `needle ${i}`).join('\n'));
  await put('empty.txt', '');
  // Not valid UTF-8: both read it as the editor shows it, each bad sequence one U+FFFD.
  await put('enc/latin1.txt', Buffer.from('caf\xe9 needle latin\n', 'latin1'));
  await put('enc/cut.txt', Buffer.from([...Buffer.from('x'), 0xe2, 0x82, ...Buffer.from('y needle cut\n')]));
  await put('enc/bom.txt', Buffer.from('\ufeffneedle after a bom\n'));
  await put('enc/not-utf16.txt', Buffer.from([0xff, 0xfe, ...Buffer.from('needle not utf16\n')]));
  await put('enc/utf16.txt', Buffer.from('\ufeffneedle in utf16\n', 'utf16le'));
  await writeFile(Buffer.from(join(world.root, 'enc', 'name-\xff.txt'), 'latin1'), 'needle bad name\n');
  // Unreadable (for anyone but root, whom no mode stops): ripgrep lists it, its search and the reader skip it.
  await put('locked/needle.txt', 'needle locked\n');
  await chmod(join(world.root, 'locked', 'needle.txt'), 0o000);
  // Around a small read cap (capped() below): exactly at it, and one byte over.
  await put('size/at.txt', `${'s'.repeat(SMALL.maxFileBytes - 12)}needle size\n`);
  await put('size/over.txt', `${'s'.repeat(SMALL.maxFileBytes - 11)}needle size\n`);
  // Large files (the matcher then tests only the lines ripgrep found): line ends, a byte-order mark, NULs, long lines,
  // bad UTF-8 at a line's end, and a final line break after which the text has one more (empty) line.
  const filler = (n: number) => Array.from({ length: n }, (_, i) => `filler line ${i} of a large file`).join('\r\n');
  await put('big/crlf.txt', `${filler(2000)}\r\nneedle crlf big\r\nends needle\r\n\r\n${filler(2000)}\r\n`);
  await put('big/bom.txt', Buffer.from(`\ufeffneedle behind a bom big\n${filler(4000)}\nneedle at the very end`));
  const wide = Array.from({ length: 100 }, (_, i) => (i % 10 === 3 ? '' : `${'w'.repeat(1500)} needle wide ${i}`)).join('\n');
  await put('big/wide.txt', `${wide}\n`);
  await put(
    'big/nul-early.txt',
    Buffer.concat([Buffer.from('\u00e9'.repeat(8000)), Buffer.from([0]), Buffer.from(`\nneedle behind an early nul\n${filler(4000)}\n`)]),
  );
  await put(
    'big/nul-late.txt',
    Buffer.concat([Buffer.from('y'.repeat(9000)), Buffer.from([0]), Buffer.from(`\nneedle behind a late nul\n${filler(4000)}\n`)]),
  );
  const emoji = '\u{1F600}';
  await put(
    'big/long.txt',
    `${'x'.repeat(9_994)}needle${'z'.repeat(3)}\n${emoji.repeat(5000)}needle hidden\n${emoji.repeat(4997)}needle\n${filler(4000)}\n`,
  );
  await put(
    'big/cut.txt',
    Buffer.concat([Buffer.from(`${filler(4000)}\nneedle cut `), Buffer.from([0xe2, 0x82]), Buffer.from('\nnext line\n')]),
  );
  await symlink(join(world.sibling, 'secret.txt'), join(world.root, 'outside-link.txt'));
  await symlink(world.sibling, join(world.root, 'outside-dir'));
  await symlink(join(world.root, 'src', 'main.ts'), join(world.root, 'inside-link.ts'));
});
afterAll(() => world.cleanup());

const secretsAsk: ApprovalGate = {
  check: async () => ({ ok: true, asked: false }),
  readAsks: (path) => secretFileReason(path) !== undefined,
};
const context = (): ToolCallContext => ({ runId: 'r', threadId: 't', toolCallId: 'c', signal: new AbortController().signal });

type Answer = { matches?: string[]; files?: string[]; note?: string; error?: string };

/** One tool call on the tree, with ripgrep or with the walker; `limits` replaces the tool's caps. */
async function call(withRipgrep: boolean, name: string, input: unknown, limits?: typeof SMALL): Promise<Answer> {
  const workspace = nodeWorkspace({ root: world.root, ...(withRipgrep ? { ripgrep: rg! } : {}) });
  const commands = commandLauncher(world.root, { ...DEFAULT_SETTINGS, 'sandbox.mode': 'off' }, () => {});
  const deps = {
    workspace,
    gate: secretsAsk,
    agent: 'test',
    commands,
    files: new FileChanges(new MemorySnapshotStore()).forRun({ runId: 'r', agent: 'test', workspace, emit: () => {} }),
  };
  const spec = limits
    ? name === 'search_text'
      ? searchTextTool(deps, limits)
      : findFilesTool(deps, limits)
    : workspaceTools(deps).find((t) => t.name === name)!;
  return (await spec.execute((spec.inputSchema as z.ZodType).parse(input), context())) as Answer;
}

describe('ripgrep and the walker agree', () => {
  it("has ripgrep to compare with (scripts/setup-e2e.sh installs Debian's ripgrep)", () => {
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
    { pattern: 'nothing matches this', glob: '*.md' },
    { pattern: 'nothing matches this', glob: 'nowhere/**' },
    { pattern: 'caf. needle' },
    { pattern: 'caf[^x] needle' },
    { pattern: 'x.y needle' },
    { pattern: 'x\\W?.\\w needle' },
    { pattern: '^needle after' },
    { pattern: 'needle not utf16' },
    { pattern: 'needle in utf16' },
    { pattern: 'needle bad name' },
    { pattern: '[^a-z]eedle', caseSensitive: true },
    { pattern: '^$' },
    { pattern: 'needle wide [0-9]+$' },
    { pattern: 'needle behind' },
    { pattern: 'needle cut .$' },
    { pattern: '^needle behind a bom big' },
    { pattern: 'crlf big$|ends needle$' },
    { pattern: 'needle hidden' },
    { pattern: 'very end', glob: 'big/**' },
  ];
  for (const input of searches) {
    it(`search_text ${JSON.stringify(input)}`, async () => {
      // The whole answer: matches, notes (what was searched, what was left out) and errors.
      expect(await call(true, 'search_text', input)).toEqual(await call(false, 'search_text', input));
    });
  }

  it('reads lines that are not valid UTF-8 as the editor shows them, and a leading byte-order mark not at all', async () => {
    const { matches } = await call(true, 'search_text', { pattern: 'caf. needle|x.y needle|^needle after a|needle not utf' });
    expect(matches).toEqual([
      'enc/bom.txt:1: needle after a bom',
      'enc/cut.txt:1: x\ufffdy needle cut',
      'enc/latin1.txt:1: caf\ufffd needle latin',
      'enc/not-utf16.txt:1: \ufffd\ufffdneedle not utf16',
    ]);
  });

  it('says the same about files that may hold secrets whether or not they match, so a search cannot read them', async () => {
    const matching = await call(true, 'search_text', { pattern: 'TOKEN=needle-s', glob: '**/.env' });
    const other = await call(true, 'search_text', { pattern: 'TOKEN=nothing', glob: '**/.env' });
    expect(matching).toEqual(other);
    expect(matching.note).toMatch(/1 files that may hold secrets/);
  });

  for (const input of [
    { pattern: 'needle' },
    { pattern: 'needle size' },
    { pattern: 'needle', glob: 'src/**' },
    { pattern: 'nothing matches this' },
  ]) {
    it(`search_text ${JSON.stringify(input)} with small caps: the same files visited, the same files read`, async () => {
      const walked = await call(false, 'search_text', input, SMALL);
      expect(await call(true, 'search_text', input, SMALL)).toEqual(walked);
    });
  }

  it('stops at the visit cap where the walker stops', async () => {
    const { matches, note } = await call(true, 'search_text', { pattern: 'needle' }, SMALL);
    expect(note).toMatch(/more than 12 files/);
    expect(matches!.some((m) => m.startsWith('zmany/'))).toBe(false);
    expect((await call(true, 'search_text', { pattern: 'needle size' }, { ...SMALL, maxVisited: 1000 })).matches).toEqual([
      'size/at.txt:1: ' + `${'s'.repeat(188)}needle size`,
    ]);
  });

  it('finds what the walker finds, and leaves out what it leaves out', async () => {
    const { matches } = await call(true, 'search_text', { pattern: 'needle' });
    const files = new Set(matches!.map((m) => m.split(':', 1)[0]));
    for (const present of [
      'keep.log',
      'src/main.ts',
      'src/rootonly.txt',
      '.hidden/config',
      'sub/.git',
      'crlf/win.txt',
      'long/line.txt',
      'src/z.txt',
      'bin/late.bin',
    ])
      expect(files).toContain(present);
    for (const absent of [
      'rootonly.txt',
      'drop.log',
      'build/out.js',
      'src/gen/x.ts',
      'src/a.gen.ts',
      '.env',
      'keys/server.pem',
      '.git/HEAD',
      'bin/early.bin',
      'outside-link.txt',
      'inside-link.ts',
    ])
      expect(files).not.toContain(absent);
    expect(matches).toContain('crlf/win.txt:2: ends needle');
    expect(matches!.length).toBe(200);
  });

  const signal = new AbortController().signal;
  const query = { caseSensitive: false, maxFileBytes: 2 * 1024 * 1024 };
  const depsWith = (ripgrep: string) => ({
    workspace: { root: world.root, ripgrep },
    commands: { environment: () => ({ PATH: process.env.PATH ?? '' }) },
  });

  it('really asks ripgrep, except for patterns only JavaScript reads right', async () => {
    const deps = depsWith(rg!);
    const mayMatch = async (pattern: string) => {
      const found = await ripgrepPrefilter(deps, { ...query, pattern }, signal, 10_000);
      return found && [...found.mayMatch].sort();
    };
    expect(await mayMatch('needle far')).toEqual(['long/line.txt']);
    expect(await mayMatch('needle late')).toEqual(['bin/late.bin']);
    expect(await mayMatch('caf. needle|x.y needle|^needle after a|needle not utf')).toEqual([
      'enc/bom.txt',
      'enc/cut.txt',
      'enc/latin1.txt',
      'enc/not-utf16.txt',
    ]);
    // Escaped out of JavaScript habit, which ripgrep would refuse.
    expect(await mayMatch('from "\\.\\/needle"')).toEqual(['src/main.ts']);
    expect(await mayMatch('(?<=x)needle')).toBeUndefined();
    // A pattern ripgrep refuses (too large for it): the walker answers.
    expect(await mayMatch('(?:\\w{100}){100}')).toBeUndefined();
    const listed = await ripgrepPrefilter(deps, { ...query, pattern: 'needle' }, signal, 10_000);
    expect(listed!.files.slice(0, 3)).toEqual(['.env', '.gitignore', 'empty.txt']);
    expect(
      await ripgrepListing({ ...deps, workspace: { root: world.root, ripgrep: join(world.root, 'no-such-rg') } }, signal, 10_000),
    ).toBeUndefined();
  });

  for (const pattern of ['*', '**/*', '*.txt', 'src/**', '.*', '**/.git', '*.bin', 'enc/*', 'nothing*']) {
    it(`find_files ${pattern}`, async () => {
      expect(await call(true, 'find_files', { pattern })).toEqual(await call(false, 'find_files', { pattern }));
    });
    it(`find_files ${pattern} with small caps`, async () => {
      expect(await call(true, 'find_files', { pattern }, { ...SMALL, maxResults: 5 })).toEqual(
        await call(false, 'find_files', { pattern }, { ...SMALL, maxResults: 5 }),
      );
    });
  }
});

describe.skipIf(process.platform !== 'linux')('ripgrep by the process launcher and started directly', () => {
  /** The tool's answer with ripgrep started one way, and how many processes the launcher started for it. */
  async function answer(byLauncher: boolean, name: string, input: unknown): Promise<{ answer: Answer; launched: number }> {
    setProcessLauncherEnabled(byLauncher);
    try {
      const before = sharedProcessLauncher()?.launched ?? 0;
      const got = await call(true, name, input);
      return { answer: got, launched: (sharedProcessLauncher()?.launched ?? 0) - before };
    } finally {
      setProcessLauncherEnabled(true);
    }
  }

  const cases: [string, Record<string, unknown>, number][] = [
    ['search_text', { pattern: 'needle' }, 2],
    ['search_text', { pattern: 'caf. needle|x.y needle|^needle after a|needle not utf' }, 2],
    ['search_text', { pattern: 'crlf big$|ends needle$', caseSensitive: true }, 2],
    ['search_text', { pattern: 'nothing matches this' }, 2],
    ['find_files', { pattern: '**/*' }, 1],
    ['find_files', { pattern: '*.txt' }, 1],
  ];
  for (const [name, input, runs] of cases) {
    it(`${name} ${JSON.stringify(input)}: the same answer, and the launcher did start ripgrep`, async () => {
      const launched = await answer(true, name, input);
      const direct = await answer(false, name, input);
      expect(launched.answer).toEqual(direct.answer);
      expect(launched.answer).toEqual(await call(false, name, input));
      expect([launched.launched, direct.launched]).toEqual([runs, 0]);
    });
  }
});
