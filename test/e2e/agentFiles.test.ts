import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CodeServer, REPO_ROOT } from './codeServer';
import { Workbench } from './workbench';

// The agent-file language server in a real VS Code. Opening the panel loads the profiles; agent
// files with problems start the server (lazily, from dist/agentClient.js), which lists them in the
// Problems view without opening them: an imported Claude Code agent whose tools all come later
// (a warning), and a broken .vscode/agents/x.md (an error). In x.md the quick fix adds the
// missing description, and the problem goes away.

const FIXTURE = join(REPO_ROOT, 'test', 'fixtures', 'agent-files-workspace');
const PROBLEM = 'has no description';

describe('agent files in a real VS Code', () => {
  let server: CodeServer | undefined;
  let workbench: Workbench | undefined;

  beforeAll(async () => {
    server = await CodeServer.start({ name: 'agent-files', fixture: FIXTURE });
    workbench = await Workbench.open(server);
  });

  afterAll(async () => {
    await workbench?.close();
    await server?.stop();
  });

  it('lists the problems of agent files, fixes one with the quick fix, and sees it go', async () => {
    const wb = workbench!;
    const page = wb.page;
    const problems = page.locator('.markers-panel');
    const row = problems.locator('.monaco-list-row', { hasText: PROBLEM });
    await wb.step('open the panel and see the problems of agent files nobody opened', async () => {
      await wb.showPanel();
      await wb.runCommand('Focus on Problems View');
      await problems.locator('.monaco-list-row', { hasText: 'none of these tools is available here' }).first().waitFor({ timeout: 90_000 });
      await row.first().waitFor({ timeout: 30_000 });
    });

    await wb.step('open .vscode/agents/x.md', async () => {
      await wb.runCommand('Go to File');
      await page.keyboard.type('.vscode/agents/x.md');
      await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'x.md' }).first().waitFor({ timeout: 15_000 });
      await page.keyboard.press('Enter');
      await page.locator('.tab.active', { hasText: 'x.md' }).waitFor({ timeout: 15_000 });
    });

    await wb.step('see its diagnostic in the Problems panel', async () => {
      await wb.runCommand('Focus on Problems View');
      await row.first().waitFor({ timeout: 30_000 });
      expect(await row.first().textContent()).toContain('subagents');
    });

    await wb.step('apply the quick fix "Add a description" in the editor', async () => {
      const action = page.locator('.action-widget .monaco-list-row', { hasText: 'Add a description' });
      // Asked again if the menu came up before the language server's answer (a busy machine): a
      // menu opened too early says "no code actions" and is not refreshed.
      await expect
        .poll(
          async () => {
            await page.keyboard.press('Escape');
            await page.locator('.editor-instance .view-lines').first().click();
            await page.keyboard.press('Control+Home');
            await page.keyboard.press('Control+.');
            return action
              .first()
              .waitFor({ timeout: 5_000 })
              .then(
                () => true,
                () => false,
              );
          },
          { timeout: 45_000, interval: 0 },
        )
        .toBe(true);
      await action.first().click();
    });

    await wb.step('see the problem go, and the description in the file once saved', async () => {
      await row.first().waitFor({ state: 'detached', timeout: 30_000 });
      await page.keyboard.press('Control+S');
      const file = join(server!.workspace, '.vscode', 'agents', 'x.md');
      await expect
        .poll(() => readFileSync(file, 'utf8'), { timeout: 15_000 })
        .toContain('description: Describe what this agent does and when to use it');
    });
  });
});
