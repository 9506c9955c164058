// A stand-in for the `vscode` module, for loading our bundles in a fresh node process outside VS
// Code (the bench's cold loads, the tests of what loading a bundle does). It answers every call
// with a disposable and every property with itself, which is all loading and activate() need, and
// records nothing.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * CommonJS source that installs the stand-in as `require('vscode')`; `root` is the repository,
 * whose @types/vscode names every top-level name of the API, so loading may touch any namespace
 * (vscode.chat, vscode.lm…) as the real one allows.
 */
export function vscodeStandInSource(root) {
  const apiNames = [
    ...new Set(
      [
        ...readFileSync(join(root, 'node_modules', '@types', 'vscode', 'index.d.ts'), 'utf8').matchAll(
          /^\texport (?:namespace|class|enum|function|const|let) (\w+)/gm,
        ),
      ].map((m) => m[1]),
    ),
  ];
  return `
const Module = require('module');
const disposable = { dispose() {} };
const any = new Proxy(function () {}, { get: (_t, k) => (k === 'then' ? undefined : any), apply: () => disposable, construct: () => any });
const vscode = Object.fromEntries(${JSON.stringify(apiNames)}.map((n) => [n, any]));
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) { return request === 'vscode' ? 'vscode' : resolve.call(this, request, ...rest); };
require.cache.vscode = { id: 'vscode', filename: 'vscode', loaded: true, exports: vscode };
`;
}
