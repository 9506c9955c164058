import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The import rules of docs/ARCHITECTURE.md live in eslint.config.mjs; this proves the config enforces it
// by linting small sources as if they stood at each place in the tree.
const eslint = new ESLint({ cwd: process.cwd() });

async function violations(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId?.endsWith('no-restricted-imports')).map((m) => m.message);
}

async function areaViolations(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'import-x/no-restricted-paths').map((m) => m.message);
}

// Linting with the whole config resolves the import graph (import-x/no-cycle): seconds under load, not a timing goal.
describe('the layer rule', { timeout: 30_000 }, () => {
  it('keeps vscode out of the core, the CLI, the shared vocabulary and the webview', async () => {
    const code = "import * as vscode from 'vscode';\nexport const x = vscode;\n";
    for (const file of ['src/core/x.ts', 'src/cli/x.ts', 'src/shared/x.ts', 'webview/x.ts']) {
      expect(await violations(file, code), file).toEqual([expect.stringContaining('vscode')]);
    }
    expect(await violations('src/host/x.ts', code)).toEqual([]);
    expect(await violations('src/extension.ts', code)).toEqual([]);
  });

  it('keeps the core from the host and the CLI, and the shared vocabulary from everything', async () => {
    expect(await violations('src/core/x.ts', "import { a } from '../host/panelView';\nexport const x = a;\n")).toHaveLength(1);
    expect(await violations('src/core/x.ts', "import { a } from '../cli/main';\nexport const x = a;\n")).toHaveLength(1);
    expect(await violations('src/shared/x.ts', "import { a } from '../core/engine';\nexport const x = a;\n")).toHaveLength(1);
    expect(await violations('src/shared/x.ts', "import { a } from 'node:fs';\nexport const x = a;\n")).toHaveLength(1);
  });

  it('lets the webview import only types from the zod-bearing shared modules, and nothing from the core', async () => {
    expect(await violations('webview/x.ts', "import type { RunEvent } from '../src/shared/events';\nexport type X = RunEvent;\n")).toEqual(
      [],
    );
    expect(
      await violations('webview/x.ts', "import { runEventSchema } from '../src/shared/events';\nexport const x = runEventSchema;\n"),
    ).toHaveLength(1);
    expect(await violations('webview/x.ts', "import { z } from 'zod';\nexport const x = z;\n")).toHaveLength(1);
    expect(await violations('webview/x.ts', "import { Engine } from '../src/core/engine';\nexport const x = Engine;\n")).toHaveLength(1);
    expect(
      await violations('webview/x.ts', "import { foldRunEvents } from '../src/shared/runTree';\nexport const x = foldRunEvents;\n"),
    ).toEqual([]);
  });

  it('keeps each area of the core from the areas above it', async () => {
    // platform is the lowest area: it may not reach the run loop, nor models the profiles of config.
    expect(
      await areaViolations(
        'src/core/platform/files/x.ts',
        "import { runTurns } from '../../run/delegation/runTurns';\nexport const x = runTurns;\n",
      ),
    ).toEqual([expect.stringContaining('src/core/platform is below')]);
    expect(
      await areaViolations(
        'src/core/models/x.ts',
        "import { loadWorkspaceProfiles } from '../config/profiles/workspaceProfiles';\nexport const x = loadWorkspaceProfiles;\n",
      ),
    ).toHaveLength(1);
    // Downward is the rule's point: the run loop may use platform and config.
    expect(
      await areaViolations(
        'src/core/run/x.ts',
        "import { parseJsonc } from '../platform/jsonc/parseJsonc';\nexport const x = parseJsonc;\n",
      ),
    ).toEqual([]);
    expect(
      await areaViolations(
        'src/core/run/x.ts',
        "import { loadWorkspaceProfiles } from '../config/profiles/workspaceProfiles';\nexport const x = loadWorkspaceProfiles;\n",
      ),
    ).toEqual([]);
  });
});
