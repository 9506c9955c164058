// The layers of docs/ARCHITECTURE.md, enforced here rather than remembered:
// vscode only in src/host and src/extension.ts; src/core never touches vscode, host, cli or webview;
// src/shared imports nothing outside itself; webview imports only src/shared (and zod only as types);
// the core's areas are stacked, and each imports only the areas below it (CORE_AREAS, bottom first).
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';
// src/core's areas, bottom to top (ports.ts and runEvents.ts sit just above platform);
// test/unit/coreAreas.test.ts reads the same list.
import CORE_AREAS from './scripts/coreAreas.json' with { type: 'json' };

const vscodeBan = { name: 'vscode', message: 'Only src/host/** and src/extension.ts may import vscode.' };
const layer = (patterns) => ['error', { paths: [vscodeBan], patterns }];

const areaPath = (area) => `./src/core/${area}`;
const areaZones = CORE_AREAS.slice(0, -1).map((area, i) => ({
  target: areaPath(area),
  from: CORE_AREAS.slice(i + 1).map(areaPath),
  message: `src/core/${area} is below ${CORE_AREAS.slice(i + 1).join(', ')}: an area imports only the areas below it (docs/ARCHITECTURE.md).`,
}));

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '**/*.mjs', '**/*.js'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // No import cycles in the product code: a module that needs another's types imports them
    // from where both can (src/core/run/delegation/delegationTypes.ts, say), never in a circle.
    files: ['src/**', 'webview/**'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js', '.mjs', '.json'] })],
    },
    rules: { 'import-x/no-cycle': 'error' },
  },
  {
    files: ['src/core/**'],
    plugins: { 'import-x': importX },
    rules: { 'import-x/no-restricted-paths': ['error', { zones: areaZones }] },
  },
  {
    files: ['src/core/**', 'src/cli/**', 'src/server/**'],
    rules: {
      'no-restricted-imports': layer([
        { group: ['**/host/**', '**/host'], message: 'The core and the CLI know no editor: do not import src/host.' },
        { group: ['**/webview/**'], message: 'Do not import the webview from node code.' },
      ]),
    },
  },
  {
    files: ['src/core/**'],
    rules: {
      'no-restricted-imports': layer([
        { group: ['**/host/**', '**/host', '**/cli/**', '**/cli'], message: 'src/core knows no host: use a port (src/core/ports.ts).' },
        { group: ['**/webview/**'], message: 'Do not import the webview from the core.' },
      ]),
    },
  },
  {
    files: ['src/shared/**'],
    rules: {
      'no-restricted-imports': layer([
        {
          group: ['**/core/**', '**/host/**', '**/cli/**', '**/server/**', '**/webview/**', 'node:*'],
          message: 'src/shared imports nothing outside itself.',
        },
      ]),
    },
  },
  {
    files: ['webview/**'],
    rules: {
      'no-restricted-imports': 'off',
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [vscodeBan, { name: 'zod', message: 'The webview never loads zod: import types only.', allowTypeImports: true }],
          patterns: [
            {
              group: ['**/src/core/**', '**/src/host/**', '**/src/cli/**', '**/src/server/**', 'node:*'],
              message: 'The webview imports only src/shared.',
            },
            {
              group: ['**/shared/events', '**/shared/protocol'],
              message: 'These modules hold zod schemas: import their types only.',
              allowTypeImports: true,
            },
          ],
        },
      ],
    },
  },
  {
    // Benchmarks measure host pieces that know no editor (the webview batcher) beside the core.
    files: ['bench/**'],
    rules: { 'no-restricted-imports': layer([]) },
  },
  {
    files: ['test/unit/**', 'test/webview/**'],
    rules: { 'no-restricted-imports': layer([]) },
  },
);
