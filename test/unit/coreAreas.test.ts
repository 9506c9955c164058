import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import CORE_AREAS from '../../scripts/coreAreas.json';

// src/core reads bottom to top (docs/ARCHITECTURE.md): an area imports only the areas below it.
// The lint says so as code is written (import-x/no-restricted-paths); this reads every import of
// the core, type imports included (which the lint's resolver may not follow), and names each one
// that goes up.

const CORE = resolve('src/core');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** The area a file of the core belongs to: its first folder, or the file itself at the root. */
function areaOf(core: string, file: string): string {
  const [first] = relative(core, file).split('/');
  return first!;
}

function coreImports(core: string, file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return importedFiles
    .filter((i) => i.fileName.startsWith('.'))
    .map((i) => resolve(dirname(file), i.fileName))
    .flatMap((base) => [`${base}.ts`, join(base, 'index.ts')].filter((f) => existsSync(f)).slice(0, 1))
    .filter((f) => f.startsWith(`${core}/`));
}

/** Every import of a file of `core` that reaches an area above the file's own. */
function upwardImports(core: string): string[] {
  const rank = (area: string) => CORE_AREAS.indexOf(area);
  return sourceFiles(core).flatMap((file) =>
    coreImports(core, file)
      .filter((target) => rank(areaOf(core, target)) > rank(areaOf(core, file)))
      .map((target) => `${relative(core, file)} imports ${relative(core, target)}`),
  );
}

describe('the core areas', () => {
  it('are every folder and root file of src/core, each named once', () => {
    const present = readdirSync(CORE).sort();
    expect([...CORE_AREAS].sort()).toEqual(present);
  });

  it('import only the areas below them', () => {
    expect(upwardImports(CORE)).toEqual([]);
  });

  it('would name an import that goes up, a type import included', () => {
    const core = mkdtempSync(join(tmpdir(), 'core-areas-'));
    try {
      mkdirSync(join(core, 'platform/files'), { recursive: true });
      mkdirSync(join(core, 'run/agent'), { recursive: true });
      writeFileSync(join(core, 'run/agent/loop.ts'), "import { read } from '../../platform/files/read';\nexport const loop = read;\n");
      writeFileSync(
        join(core, 'platform/files/read.ts'),
        "import type { Loop } from '../../run/agent/loop';\nexport const read = (l?: Loop) => l;\n",
      );
      expect(upwardImports(core)).toEqual(['platform/files/read.ts imports run/agent/loop.ts']);
    } finally {
      rmSync(core, { recursive: true, force: true });
    }
  });
});
