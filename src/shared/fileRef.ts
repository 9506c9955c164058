/**
 * Whether a bit of model text (a code span, a link target, a tool's path) names a workspace file,
 * and where: `src/invoice.ts`, `src/invoice.ts:42`, `src/invoice.ts:42:7`, `src/invoice.ts#L42`,
 * `src/invoice.ts:10-24`. The panel makes these links; the host decides whether the file is in the
 * workspace and exists, so this errs on the side of what reads as a path, not what is one.
 */

export interface FileRef {
  /** Workspace-relative, with `/` separators and no leading `./`. */
  path: string;
  /** 1-based. */
  line?: number;
}

// Extensions of text files people and models name. `.log`, `.min` and the like read as code
// (`console.log`, `Math.min`) when there is no folder in front of them, so only these count then.
const EXTENSIONS = new Set(
  (
    'ts tsx mts cts js jsx mjs cjs json jsonc json5 md mdx markdown txt rst adoc py pyi ipynb rb rs go java kt kts scala swift ' +
    'c h cc cpp cxx hpp hh m mm cs fs vb php pl lua r dart ex exs erl hs ml elm clj sql sh bash zsh fish ps1 bat cmd ' +
    'css scss sass less html htm vue svelte astro xml svg yml yaml toml ini cfg conf env properties gradle lock csv tsv ' +
    'proto graphql gql tf hcl nix zig sol diff patch'
  ).split(' '),
);
/** Files without an extension that are still obviously files. */
const BARE_NAMES = new Set([
  'Makefile',
  'Dockerfile',
  'Containerfile',
  'Gemfile',
  'Rakefile',
  'Procfile',
  'Justfile',
  'LICENSE',
  'README',
  'CHANGELOG',
  'CODEOWNERS',
  '.gitignore',
  '.gitattributes',
  '.editorconfig',
  '.npmrc',
  '.nvmrc',
  '.env',
]);

const SEGMENT = /^[\w@+.-]+$/;
const LOCATION = /^(.*?)(?::(\d{1,7})(?:[:-]\d{1,7})?|#L(\d{1,7})(?:-L?\d{1,7})?)$/;
const MAX_LENGTH = 300;

export function parseFileRef(text: string): FileRef | undefined {
  let candidate = text.trim();
  if (candidate.length === 0 || candidate.length > MAX_LENGTH) return undefined;
  let line: number | undefined;
  const at = LOCATION.exec(candidate);
  if (at) {
    candidate = at[1]!;
    line = Number(at[2] ?? at[3]);
  }
  if (candidate.startsWith('./')) candidate = candidate.slice(2);
  // Absolute paths, home paths, URLs, parent folders and Windows drives are not workspace paths.
  if (/^([/~\\]|[A-Za-z]:|\.\.(\/|$))/.test(candidate) || candidate.includes('://')) return undefined;
  const segments = candidate.split('/');
  if (segments.some((s) => !SEGMENT.test(s) || s === '.' || s === '..')) return undefined;
  const name = segments[segments.length - 1]!;
  if (!looksLikeFile(name, segments.length > 1)) return undefined;
  return line === undefined || line < 1 ? { path: candidate } : { path: candidate, line };
}

function looksLikeFile(name: string, inFolder: boolean): boolean {
  if (BARE_NAMES.has(name)) return true;
  const dot = name.lastIndexOf('.');
  if (dot <= 0 || dot === name.length - 1) return false;
  const ext = name.slice(dot + 1);
  // A version (`v1.2.3`) or a number (`1.5`) is not a file name.
  if (/^\d+$/.test(ext) || /^[\d.]+$/.test(name.slice(0, dot))) return false;
  if (EXTENSIONS.has(ext.toLowerCase())) return true;
  // In a folder, any short extension reads as a file (`logs/app.log`, `data/x.parquet`).
  return inFolder && /^[A-Za-z][A-Za-z0-9]{0,9}$/.test(ext);
}

/** How a reference reads in the panel: `src/invoice.ts:42`. */
export function fileRefText(ref: FileRef): string {
  return ref.line === undefined ? ref.path : `${ref.path}:${ref.line}`;
}
