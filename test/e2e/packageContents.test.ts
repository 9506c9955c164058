import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { LAZY_BUNDLES, RUNTIME_ASSETS } from '../../scripts/bundles.mjs';
import { REPO_ROOT, VSIX } from './codeServer';

// The .vsix is complete on its own: every file its manifest points at (main, icons, contributed
// paths) and every bundle the extension loads at run time is inside it. Reads the built package
// (`npm run package`), a zip, as VS Code would install it.

/** Files the code loads by path at run time, which the manifest does not name. */
const LOADED_AT_RUN_TIME = [
  'dist/engine.js',
  'dist/webview.js',
  'dist/webview.css',
  'dist/codicon.css',
  'dist/codicon.ttf',
  // The engine's lazily loaded parts (the sandbox, the bash parser) and the files they read.
  ...Object.entries(LAZY_BUNDLES)
    .filter(([, bundle]) => !bundle.cliOnly)
    .map(([name]) => `dist/${name}.js`),
  ...RUNTIME_ASSETS.map((asset) => `dist/${asset.to}`),
];
/** Manifest keys whose values are files of the extension. */
const PATH_KEYS = new Set(['main', 'browser', 'icon', 'light', 'dark', 'path', 'configuration', 'image', 'url', 'snippets']);

function readZip(file: string): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error ?? new Error(`cannot open ${file}`));
      const entries = new Map<string, Buffer>();
      zip.on('error', reject);
      zip.on('end', () => resolve(entries));
      zip.on('entry', (entry: yauzl.Entry) => {
        if (entry.fileName.endsWith('/')) return zip.readEntry();
        zip.openReadStream(entry, (err, stream) => {
          if (err || !stream) return reject(err ?? new Error(`cannot read ${entry.fileName}`));
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            entries.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}

/** Every file path the manifest names, as `dist/extension.js` (no `./`), with where it was found. */
function referencedFiles(manifest: Record<string, unknown>): { where: string; file: string }[] {
  const out: { where: string; file: string }[] = [];
  const visit = (value: unknown, where: string, key: string): void => {
    if (typeof value === 'string') {
      // $(codicon) names an icon of the editor's font; a URL is not a file of ours.
      if (PATH_KEYS.has(key) && !value.startsWith('$(') && !/^[a-z]+:/i.test(value)) out.push({ where, file: value.replace(/^\.\//, '') });
      return;
    }
    if (Array.isArray(value)) value.forEach((v, i) => visit(v, `${where}[${i}]`, key));
    else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) visit(v, `${where}.${k}`, k);
  };
  for (const key of ['main', 'browser', 'icon']) visit(manifest[key], key, key);
  visit(manifest.contributes, 'contributes', 'contributes');
  return out;
}

describe('the packaged extension', () => {
  it('holds every file its manifest names and every bundle it loads', async () => {
    const entries = await readZip(VSIX).catch((error: unknown) => {
      throw new Error(`Cannot read ${VSIX} (${String(error)}). Build it with \`npm run package\` first.`);
    });
    const manifest = JSON.parse(entries.get('extension/package.json')!.toString('utf8')) as Record<string, unknown>;
    const referenced = referencedFiles(manifest);
    // The manifest does name the activity-bar icon and the entry point: the walk found them.
    expect(referenced).toEqual(
      expect.arrayContaining([
        { where: 'main', file: 'dist/extension.js' },
        { where: 'contributes.viewsContainers.activitybar[0].icon', file: 'media/icon.svg' },
      ]),
    );
    const missing = [...referenced, ...LOADED_AT_RUN_TIME.map((file) => ({ where: 'loaded at run time', file }))].filter(
      (r) => !entries.has(`extension/${r.file}`),
    );
    expect(missing, `files missing from ${join(REPO_ROOT, 'dist', 'subagents.vsix')}`).toEqual([]);
    // The README shows in the editor's extension page from the package: its pictures must be there.
    // vsce stores it as readme.md, whatever its case in the repository.
    const readmeName = [...entries.keys()].find((n) => n.toLowerCase() === 'extension/readme.md');
    expect(readmeName, 'the README is packaged').toBeDefined();
    const readme = entries.get(readmeName!)!.toString('utf8');
    const pictures = [...readme.matchAll(/!\[[^\]]*\]\((?!https?:)([^)\s]+)\)/g)].map((m) => m[1]!.replace(/^\.\//, ''));
    expect(pictures.filter((p) => !entries.has(`extension/${p}`))).toEqual([]);
    // The icon is a real SVG, not an empty placeholder.
    expect(entries.get('extension/media/icon.svg')!.toString('utf8')).toMatch(/^<svg[\s\S]+<\/svg>\s*$/);
  });

  it('ships no tests, sources or maps', async () => {
    const names = [...(await readZip(VSIX)).keys()];
    expect(names.filter((n) => /^extension\/(src|test|webview|node_modules|bench)\/|\.map$|\.ts$/.test(n))).toEqual([]);
  });
});
