import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CodeServer, REPO_ROOT } from './codeServer';
import { lastAnswer, sendButton } from './panelDom';
import { Workbench } from './workbench';

// Every "Subagents:" command of the palette, run as a user would in a real VS Code: each does
// something visible or says why it cannot. One conversation is made first (the demo's scripted
// model answers a question it has no script for), so the thread commands have something to act on.

const FIXTURE = join(REPO_ROOT, 'test', 'fixtures', 'demo-workspace');
const QUESTION = 'What does this project do?';

describe('the palette commands in a real VS Code', () => {
  let server: CodeServer | undefined;
  let workbench: Workbench | undefined;

  beforeAll(async () => {
    server = await CodeServer.start({ name: 'commands', fixture: FIXTURE });
    workbench = await Workbench.open(server);
  });

  afterAll(async () => {
    await workbench?.close();
    await server?.stop();
  });

  it('answers every command: the thread commands, the setup commands, and Cancel Run with nothing running', async () => {
    const wb = workbench!;
    const srv = server!;

    await wb.step('Cancel Run with nothing running says so', async () => {
      await wb.runCommand('Subagents: Cancel Run');
      await wb.notification('No run is active in the open conversation.').waitFor({ timeout: 15_000 });
    });

    await wb.step('Open Panel shows the view with the keyboard in the prompt box; ask a question to have a conversation', async () => {
      await wb.runCommand('Subagents: Open Panel');
      const panel = wb.panel();
      await expect.poll(() => panel.locator(':focus').getAttribute('id'), { timeout: 30_000 }).toBe('prompt');
      await panel.locator('#prompt').fill('');
      await wb.page.keyboard.type(QUESTION);
      await sendButton(panel).click();
      await lastAnswer(panel, 'ok').waitFor({ timeout: 30_000 });
    });

    await wb.step('Show Log shows the run starting and finishing, without the question', async () => {
      await wb.runCommand('Subagents: Show Log');
      const output = wb.page.locator('.part.panel .output-view, .part.panel [id="workbench.panel.output"]').first();
      await output.locator('.view-lines', { hasText: 'started: supervisor in thread' }).waitFor({ timeout: 15_000 });
      await output.locator('.view-lines', { hasText: '(supervisor) finished in' }).waitFor({ timeout: 15_000 });
      expect(await output.locator('.view-lines').innerText()).not.toContain(QUESTION);
    });

    await wb.step('Show Run Tree opens the tree as text', async () => {
      await wb.runCommand('Subagents: Show Run Tree');
      await wb.page
        .locator('.editor-group-container.active .view-lines', { hasText: 'supervisor [ok] What does this project do?' })
        .waitFor({ timeout: 15_000 });
    });

    await wb.step('Export Thread proposes a folder outside the workspace, and writes Markdown where the user says', async () => {
      await wb.runCommand('Subagents: Export Thread');
      await wb.pick('Markdown');
      // code-server's own save dialog: a path box, filled with the proposed folder and the title.
      const input = wb.quickInput().locator('input');
      await expect.poll(() => input.inputValue(), { timeout: 15_000 }).toMatch(/what-does-this-project-do\.md$/);
      // The first time: Downloads or home, never the workspace (a file there is one `git add .` from a commit).
      expect(dirname(await input.inputValue())).not.toBe(srv.workspace);
      const file = join(srv.workspace, 'what-does-this-project-do.md');
      // The user chooses the workspace anyway (and nothing is written to the real home of the machine running the test).
      await input.fill(file);
      await expect.poll(() => input.inputValue(), { timeout: 15_000 }).toBe(file);
      // The dialog lists the folder typed before it takes an answer (Enter while it still lists the
      // proposed one may open a row instead), then OK saves to the path in the box.
      await wb.quickInput().locator('.monaco-list-row', { hasText: 'README.md' }).waitFor({ timeout: 15_000 });
      await wb.quickInput().getByRole('button', { name: 'OK' }).click();
      await wb.notification('Exported "What does this project do?"').waitFor({ timeout: 15_000 });
      expect(existsSync(file)).toBe(true);
      expect(readFileSync(file, 'utf8')).toMatch(/^# What does this project do\?\n[\s\S]*This is a \*\*scripted demo\*\*/);
    });

    await wb.step('Select Model lists what the first-run chooser lists, with the model in use', async () => {
      await wb.runCommand('Subagents: Select Model');
      await wb.quickInput().locator('input[placeholder*="Demo (scripted)"]').waitFor({ timeout: 15_000 });
      await wb.quickInput().locator('.monaco-list-row', { hasText: 'Enter an OpenAI API key' }).waitFor({ timeout: 15_000 });
      await wb.quickInput().locator('.monaco-list-row', { hasText: 'No language model is available from the editor' }).waitFor();
      await wb.page.keyboard.press('Escape');
    });

    await wb.step('Configure Agents opens the workspace settings at subagents.agents', async () => {
      await wb.runCommand('Subagents: Configure Agents');
      await wb.pick('"subagents.agents" in .vscode/settings.json');
      await expect.poll(() => wb.activeEditorTitle(), { timeout: 15_000 }).toBe('settings.json');
      const line =
        readFileSync(join(srv.workspace, '.vscode', 'settings.json'), 'utf8')
          .split('\n')
          .findIndex((l) => l.includes('"subagents.agents"')) + 1;
      await expect.poll(() => wb.cursorPosition(), { timeout: 10_000 }).toMatch(new RegExp(`^Ln ${line}, Col 1`));
    });

    await wb.step('Set API Key, New Agent File and Import Agents each answer', async () => {
      await wb.runCommand('Subagents: Set API Key');
      await wb.quickInput().locator('.monaco-list-row', { hasText: 'OpenAI' }).first().waitFor({ timeout: 15_000 });
      await wb.page.keyboard.press('Escape');
      await wb.runCommand('Subagents: New Agent File');
      await wb.page.locator('.quick-input-widget', { hasText: 'New Agent File' }).waitFor({ timeout: 15_000 });
      await wb.page.keyboard.press('Escape');
      await wb.runCommand('Subagents: Import Agents');
      await wb.notification('There are no agent files in ~/.claude/agents or ~/.copilot/agents').waitFor({ timeout: 15_000 });
    });

    await wb.step(
      'Export Thread writes JSON; Delete All Threads asks once and empties the list; Import Thread brings the conversation back',
      async () => {
        await wb.runCommand('Subagents: Export Thread');
        await wb.pick('JSON');
        const input = wb.quickInput().locator('input');
        // The folder chosen last time is proposed again.
        await expect.poll(() => input.inputValue(), { timeout: 15_000 }).toBe(join(srv.workspace, 'what-does-this-project-do.json'));
        await wb.page.keyboard.press('Enter');
        await wb.notification('Exported "What does this project do?"').waitFor({ timeout: 15_000 });
        const file = join(srv.workspace, 'what-does-this-project-do.json');
        expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({
          format: 'subagents-thread',
          thread: { title: 'What does this project do?' },
        });

        // From the view's own `…` menu, where people look for it, not only the palette.
        await wb.viewMenu('Delete All Threads');
        await wb.dialogButton('Delete All').click();
        await wb.notification("Deleted 1 conversation and their subagents' threads.").waitFor({ timeout: 15_000 });
        await wb.runCommand('Subagents: Export Thread');
        await wb.notification('There are no conversations yet').waitFor({ timeout: 15_000 });

        await wb.viewMenu('Import Thread');
        const path = wb.quickInput().locator('input');
        // The file dialog fills in its folder itself, a moment after it shows: typed before that, the path is overwritten.
        await expect.poll(() => path.inputValue(), { timeout: 15_000 }).toMatch(/workspace\/?$/);
        await path.fill(file);
        await expect.poll(() => path.inputValue(), { timeout: 15_000 }).toBe(file);
        await wb.page.keyboard.press('Enter');
        await wb.notification('Imported "What does this project do?"').waitFor({ timeout: 15_000 });
        await lastAnswer(wb.panel(), 'ok').waitFor({ timeout: 15_000 });
      },
    );

    await wb.step('Delete Thread asks once, then the conversation is gone', async () => {
      await wb.runCommand('Subagents: Delete Thread');
      await wb.pick('What does this project do?');
      await wb.dialogButton('Delete').click();
      await wb.notification('Deleted "What does this project do?"').waitFor({ timeout: 15_000 });
      await wb.runCommand('Subagents: Export Thread');
      await wb.notification('There are no conversations yet').waitFor({ timeout: 15_000 });
    });
  });
});
