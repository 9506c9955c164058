import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Language, Parser, type Tree } from '@vscode/tree-sitter-wasm';

/**
 * tree-sitter with its bash grammar, the parser VS Code's own terminal auto-approval uses
 * (@vscode/tree-sitter-wasm). This module is a lazily loaded bundle of its own (dist/bashParser.js,
 * see scripts/bundles.mjs): the engine imports it on the first command it judges.
 */

export interface BashParser {
  /** The syntax tree of a command line; the caller deletes it when done. */
  parse(line: string): Tree;
}

/** Beside this bundle in dist/, or in the package when running from source. */
function wasmFile(name: string): string {
  const beside = join(dirname(fileURLToPath(import.meta.url)), name);
  return existsSync(beside) ? beside : createRequire(import.meta.url).resolve(`@vscode/tree-sitter-wasm/wasm/${name}`);
}

export async function loadBashParser(): Promise<BashParser> {
  const runtime = wasmFile('tree-sitter.wasm');
  await Parser.init({ locateFile: () => runtime });
  const bash = await Language.load(await readFile(wasmFile('tree-sitter-bash.wasm')));
  const parser = new Parser();
  parser.setLanguage(bash);
  return {
    parse(line) {
      const tree = parser.parse(line);
      if (!tree) throw new Error('tree-sitter returned no tree for the command line.');
      return tree;
    },
  };
}
