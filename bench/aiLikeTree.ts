import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';

/**
 * A stand-in for issue 15's search tree (a snapshot of the `ai` SDK's repository: 8,058 files,
 * 82 MB), which is not on this machine: the SDK's published packages unpacked into a git
 * repository shaped like its monorepo. Tracked: each package's sources, README and changelog
 * under packages/NAME, the previous major line's sources and built files beside them (standing in
 * for the tests and the large recorded fixtures the published packages leave out), the docs under
 * content/, the docs' code blocks as examples/ai-core/src files, and media (images, audio, PDFs:
 * binary, some with code words after a NUL). Ignored: each package's `dist` (as after `pnpm
 * build`) and a node_modules with the tarballs whole (as after `pnpm install`). Made once into a
 * cache folder from tarballs npm fetches, never committed.
 */
/**
 * The SDK's packages (the monorepo's packages/) at the ai@7 line, pinned so the tree is the same
 * everywhere; the previous line (ai@6) beside each one's sources stands in for the tests and
 * fixtures that published packages leave out (the repository keeps one beside each source file).
 */
const SDK_7 =
  'ai@7.0.173 alibaba@2.0.58 amazon-bedrock@5.0.101 anthropic@4.0.105 assemblyai@3.0.40 azure@4.0.85 baseten@2.1.26 black-forest-labs@2.0.41 bytedance@1.0.29 cerebras@3.0.59 codemod@4.0.1 cohere@4.0.52 deepgram@3.1.16 deepinfra@3.0.57 deepseek@3.0.56 devtools@1.0.22 elevenlabs@3.0.46 fal@3.0.41 fireworks@3.0.62 gateway@4.0.146 gladia@3.0.40 google@4.0.121 google-vertex@5.0.141 groq@4.0.84 huggingface@2.0.48 hume@3.0.40 langchain@3.0.99 llamaindex@3.0.111 lmnt@3.0.36 luma@3.0.41 mcp@2.0.99 mistral@4.0.87 moonshotai@3.0.60 open-responses@2.0.36 openai@4.0.118 openai-compatible@3.0.92 perplexity@4.0.49 prodia@1.0.50 provider@4.0.38 provider-utils@5.0.81 react@4.0.177 replicate@3.0.46 revai@3.0.40 rsc@3.0.107 solid@1.2.13 svelte@5.0.118 test-server@2.0.1 togetherai@3.0.54 valibot@3.0.49 vercel@2.0.78 vue@4.0.112 xai@5.0.12';
const SDK_6 =
  'ai@6.0.326 alibaba@1.0.61 amazon-bedrock@4.0.186 anthropic@3.0.140 assemblyai@2.0.58 azure@3.0.128 baseten@1.1.11 black-forest-labs@1.0.33 bytedance@1.0.29 cerebras@2.0.82 codemod@3.0.8 cohere@3.0.63 deepgram@2.0.58 deepinfra@2.0.84 deepseek@2.0.69 devtools@0.0.24 elevenlabs@2.0.58 fal@2.0.59 fireworks@2.0.90 gateway@3.0.232 gladia@2.0.58 google@3.0.141 google-vertex@4.0.208 groq@3.0.71 huggingface@1.0.77 hume@2.0.57 langchain@2.0.296 llamaindex@3.0.111 lmnt@2.0.56 luma@2.0.57 mcp@1.0.102 mistral@3.0.69 moonshotai@2.0.61 open-responses@1.0.39 openai@3.0.141 openai-compatible@2.0.92 perplexity@3.0.61 prodia@1.0.50 provider@3.0.19 provider-utils@4.0.66 react@3.0.328 replicate@2.0.57 revai@2.0.57 rsc@2.0.288 solid@1.2.13 svelte@4.0.288 test-server@1.0.6 togetherai@2.0.84 valibot@2.0.52 vercel@2.0.78 vue@3.0.323 xai@3.0.138';
/** Dependencies whose sources the repository does not hold: only its node_modules does. */
const DEPENDENCIES = [
  'zod@4.6.7',
  '@modelcontextprotocol/sdk@1.32.2',
  '@opentelemetry/api@1.10.0',
  'eventsource-parser@3.1.1',
  '@vercel/oidc@4.0.9',
  'typescript@7.0.2',
];

/** `short@1.2.3` as the package's full spec: `@ai-sdk/short@1.2.3`, `ai@…` as it is. */
const sdk = (line: string) => line.split(' ').map((spec) => (spec.startsWith('ai@') ? spec : `@ai-sdk/${spec}`));

const CACHE = join(homedir(), '.cache', 'subagents-bench');

/** A repeatable byte stream (mulberry32), so the tree is the same on every machine. */
function randomBytes(seed: number, length: number): Buffer {
  const out = Buffer.alloc(length);
  let s = seed >>> 0;
  for (let i = 0; i < length; i++) {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    out[i] = (t ^ (t >>> 14)) & 0xff;
  }
  return out;
}

/** The tarball of each package spec (`name@version`), fetched once through npm into the cache. */
function tarballs(specs: readonly string[]): Map<string, string> {
  const dir = join(CACHE, 'npm-tarballs');
  mkdirSync(dir, { recursive: true });
  // npm names `@scope/name@1.2.3` scope-name-1.2.3.tgz.
  const fileOf = (spec: string) =>
    join(
      dir,
      `${spec
        .replace(/^@/, '')
        .replace('/', '-')
        .replace(/@(?=[^@]+$)/, '-')}.tgz`,
    );
  const missing = specs.filter((spec) => !existsSync(fileOf(spec)));
  if (missing.length) {
    console.log(`ai-like tree: fetching ${missing.length} package tarballs with npm pack`);
    execFileSync('npm', ['pack', '--silent', '--pack-destination', dir, ...missing], { stdio: ['ignore', 'ignore', 'inherit'] });
  }
  const found = new Map<string, string>();
  for (const spec of specs) {
    if (!existsSync(fileOf(spec))) throw new Error(`ai-like tree: npm pack left no ${fileOf(spec)}`);
    found.set(spec, fileOf(spec));
  }
  return found;
}

function unpack(tarball: string, into: string): void {
  mkdirSync(into, { recursive: true });
  execFileSync('tar', ['-xzf', tarball, '-C', into, '--strip-components', '1', '--no-same-owner']);
}

function moveIfThere(from: string, to: string): void {
  if (!existsSync(from)) return;
  mkdirSync(dirname(to), { recursive: true });
  renameSync(from, to);
}

/** Media as the examples keep them: binary, NULs throughout; some carry code words after a NUL (the walker's binary rule must skip them). */
function media(root: string): void {
  const kinds = [
    { ext: 'png', header: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
    { ext: 'jpg', header: Buffer.from([0xff, 0xd8, 0xff, 0xe0]) },
    { ext: 'mp3', header: Buffer.from('ID3\u0004\u0000') },
    { ext: 'pdf', header: Buffer.from('%PDF-1.7\n%\u00e2\u00e3\n') },
  ];
  for (let i = 0; i < 40; i++) {
    const { ext, header } = kinds[i % kinds.length]!;
    // Mostly small, a few large (a 3 MB recording is over the 2 MB read cap): about 7 MB in all.
    const size = i === 0 ? 3_000_000 : i % 10 === 5 ? 600_000 : 20_000 + i * 1500;
    const text = i % 3 === 0 ? Buffer.from(`\nexport function generateTextTool() { return "streamText"; }\n`) : Buffer.alloc(0);
    const file = join(root, 'examples', i % 2 ? 'ai-core' : 'next-openai', i % 2 ? 'data' : 'public', `media-${i}.${ext}`);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, Buffer.concat([header, randomBytes(i + 1, size), text]));
  }
}

/** The docs' code blocks as the example files the repository keeps one a scenario (examples/ai-core/src/PROVIDER/…). */
function examples(docs: string, into: string): void {
  for (const provider of readdirSync(docs)) {
    const pages = readdirSync(join(docs, provider), { recursive: true, encoding: 'utf8' }).filter((f) => /\.mdx?$/.test(f));
    for (const page of pages) {
      const blocks = [...readFileSync(join(docs, provider, page), 'utf8').matchAll(/```tsx?[^\n]*\n([\s\S]*?)```/g)];
      for (const [n, block] of blocks.entries()) {
        const file = join(into, provider, `${basename(page).replace(/\.mdx?$/, '')}-${n + 1}.ts`);
        mkdirSync(dirname(file), { recursive: true });
        writeFileSync(file, block[1]!);
      }
    }
  }
}

function countFiles(dir: string, skip: (name: string) => boolean): { files: number; bytes: number } {
  let files = 0;
  let bytes = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (skip(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      const inner = countFiles(path, skip);
      files += inner.files;
      bytes += inner.bytes;
    } else if (entry.isFile()) {
      files++;
      bytes += statSync(path).size;
    }
  }
  return { files, bytes };
}

/** The tree at `root` (made when missing); returns a line that says what it holds. */
export function aiLikeTree(root = join(CACHE, 'ai-like-tree')): { root: string; what: string } {
  if (!existsSync(join(root, '.git'))) {
    const building = `${root}.building`;
    rmSync(building, { recursive: true, force: true });
    const [current, previous] = [sdk(SDK_7), sdk(SDK_6)];
    const found = tarballs([...current, ...previous, ...DEPENDENCIES]);
    const nameOf = (spec: string) => spec.slice(0, spec.lastIndexOf('@'));
    for (const [i, spec] of current.entries()) {
      const short = nameOf(spec).replace('@ai-sdk/', '');
      const pkg = join(building, 'packages', short);
      unpack(found.get(spec)!, pkg);
      // What `pnpm build` makes is ignored; the docs live in the site's content folder.
      moveIfThere(join(pkg, 'docs'), join(building, 'content', 'providers', short));
      writeFileSync(join(pkg, '.gitignore'), 'dist/\n*.tsbuildinfo\n');
      const old = join(building, '.previous', short);
      unpack(found.get(previous[i]!)!, old);
      moveIfThere(join(old, 'src'), join(pkg, 'src', '__previous__'));
      // Recorded responses and snapshots (the repository's __fixtures__, often large): the previous line's built files, text.
      moveIfThere(join(old, 'dist'), join(pkg, 'src', '__fixtures__'));
      moveIfThere(join(old, 'docs'), join(building, 'content', 'docs', short));
    }
    rmSync(join(building, '.previous'), { recursive: true, force: true });
    examples(join(building, 'content', 'providers'), join(building, 'examples', 'ai-core', 'src'));
    // What `pnpm install` puts there: the published packages the examples use, and the dependencies.
    for (const spec of [...current, ...DEPENDENCIES]) unpack(found.get(spec)!, join(building, 'node_modules', nameOf(spec)));
    // pnpm links each workspace package into node_modules/.pnpm; a copy stands for it here.
    cpSync(join(building, 'packages', 'ai', 'src'), join(building, 'node_modules', '.pnpm', 'ai@workspace', 'src'), { recursive: true });
    media(building);
    writeFileSync(join(building, '.gitignore'), 'node_modules/\n.turbo/\n.next/\n*.log\n.env*\n!.env.example\n');
    writeFileSync(join(building, '.env.example'), 'OPENAI_API_KEY=\nANTHROPIC_API_KEY=\n');
    writeFileSync(
      join(building, 'package.json'),
      `${JSON.stringify({ name: 'ai-monorepo', private: true, workspaces: ['packages/*', 'examples/*'] }, null, 2)}\n`,
    );
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@localhost', '-c', 'commit.gpgsign=false', ...args], {
        cwd: building,
        stdio: 'ignore',
      });
    git('init', '-q');
    git('add', '-A');
    git('commit', '-q', '-m', 'snapshot');
    renameSync(building, root);
  }
  const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: root, maxBuffer: 64 * 1024 * 1024 })
    .toString()
    .split('\0')
    .filter(Boolean).length;
  const all = countFiles(root, (name) => name === '.git');
  const sizes = countFiles(root, (name) => name === '.git' || name === 'node_modules' || name === 'dist');
  const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;
  return {
    root,
    what: `${tracked} tracked files (${mb(sizes.bytes)}), ${all.files} with the ignored node_modules and dist folders (${mb(all.bytes)})`,
  };
}
