import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// No module of src or webview imports itself through others. ESLint's import-x/no-cycle guards the imports
// that run; it skips `import type` by design, so this also walks the type imports (with the
// TypeScript compiler's own import scanner): a type cycle is a knot in the design all the same.

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

function localImports(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return importedFiles
    .filter((i) => i.fileName.startsWith('.'))
    .map((i) => resolve(dirname(file), i.fileName))
    .flatMap((base) => [`${base}.ts`, join(base, 'index.ts')].filter((f) => existsSync(f)).slice(0, 1));
}

/** The groups of files that reach each other (Tarjan's strongly connected components of size > 1). */
function cycles(files: string[]): string[][] {
  const edges = new Map(files.map((f) => [f, localImports(f)]));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const group: string[] = [];
    for (let w = stack.pop(); w !== undefined; w = w === v ? undefined : stack.pop()) group.push(w);
    if (group.length > 1) found.push(group.map((f) => relative(process.cwd(), f)).sort());
  };
  for (const f of files) if (!index.has(f)) visit(f);
  return found;
}

describe('imports', () => {
  it('form no cycle in src, type imports included', () => {
    expect(cycles(sourceFiles(resolve('src')))).toEqual([]);
  });

  it('form no cycle in the webview, type imports included', () => {
    expect(cycles(sourceFiles(resolve('webview')))).toEqual([]);
  });

  it('are checked for cycles by the lint', async () => {
    const eslint = new ESLint({ cwd: process.cwd() });
    // runResult.ts as if it imported the turn loop, which (through delegate_task) imports it.
    const [result] = await eslint.lintText("import { runTurns } from './runTurns';\nexport const x = runTurns;\n", {
      filePath: 'src/core/run/delegation/runResult.ts',
    });
    expect(result!.messages.filter((m) => m.ruleId === 'import-x/no-cycle')).toHaveLength(1);
  });
});
