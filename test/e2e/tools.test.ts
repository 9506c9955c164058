import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CodeServer, REPO_ROOT } from './codeServer';
import { Workbench } from './workbench';

// The workspace tools through the editor's own adapter (WorkspaceEdit writes, the agent terminal),
// and approvals in the panel: a child's write asks on the child's own node and waits (although the
// workspace's settings say "trust": only user settings may), Approve once lets it through; a
// command the user's settings allow runs without asking, in the OS sandbox.

const FIXTURE = join(REPO_ROOT, 'test', 'fixtures', 'tools-workspace');

describe('workspace tools and approvals in a real VS Code', () => {
  let server: CodeServer | undefined;
  let workbench: Workbench | undefined;

  beforeAll(async () => {
    // The command allowlist is the user's; the workspace's approval "trust" must be ignored.
    server = await CodeServer.start({ name: 'tools', fixture: FIXTURE, userSettings: { 'subagents.autoApproveCommands': ['ls'] } });
    workbench = await Workbench.open(server);
  });

  afterAll(async () => {
    await workbench?.close();
    await server?.stop();
  });

  it("asks on the child's node, writes once approved, runs an allowlisted command, and edits an open file with Undo", async () => {
    const wb = workbench!;
    const target = join(server!.workspace, 'notes', 'release.md');
    const readme = join(server!.workspace, 'notes', 'README.md');
    const editorText = wb.page.locator('.editor-instance .monaco-editor .view-lines').first();
    await wb.step('open notes/README.md in an editor', async () => {
      await wb.runCommand('Go to File...');
      await wb.page.keyboard.type('notes/README.md');
      await wb.page.locator('.quick-input-widget .monaco-list-row', { hasText: 'README.md' }).first().waitFor({ timeout: 15_000 });
      await wb.page.keyboard.press('Enter');
      await editorText.filter({ hasText: 'Notes written by agents land here.' }).waitFor({ timeout: 30_000 });
    });
    const panel = await wb.step('open the Subagents view', () => wb.showPanel());
    await wb.step('send the prompt', async () => {
      await panel.locator('#prompt').click();
      await wb.page.keyboard.type('Write the release note');
      await panel.locator('#send').click();
    });

    const scribe = panel.locator('.run-tree [role="treeitem"][data-agent="scribe"]');
    const request = scribe.locator('.tool-call[data-tool="write_file"] .approve');
    await wb.step("see the approval on the scribe's node, with nothing written yet", async () => {
      await request.waitFor({ timeout: 60_000 });
      expect(await scribe.getAttribute('data-state')).toBe('running');
      expect(existsSync(target)).toBe(false);
    });

    // The supervisor's own calls sit at the top of its turn's tree, under its answer.
    const supervisor = panel.locator('.turn .run-tree').first();
    await wb.step('approve once and see the file written', async () => {
      await request.click();
      await supervisor.locator(':scope > .tool-call[data-tool="edit_file"] .approve').waitFor({ timeout: 60_000 });
      expect(readFileSync(target, 'utf8')).toBe('# Release 1.2\n\nFaster delegation.\n');
      expect(await scribe.locator('.tool-call[data-tool="write_file"]').getAttribute('data-state')).toBe('done');
    });

    await wb.step('approve the edit of the open file: the editor shows it, it is saved, and Undo takes it back', async () => {
      await supervisor.locator(':scope > .tool-call[data-tool="edit_file"] .approve').click();
      await panel.locator('.message.assistant[data-state="ok"]').waitFor({ timeout: 60_000 });
      expect(readFileSync(readme, 'utf8')).toBe('Notes written by agents land here, and Undo takes them back.\n');
      await editorText.filter({ hasText: 'and Undo takes them back' }).waitFor({ timeout: 15_000 });
      await editorText.click();
      await wb.page.keyboard.press('Control+Z');
      await editorText.filter({ hasText: 'Notes written by agents land here.' }).waitFor({ timeout: 15_000 });
    });

    await wb.step('see the allowlisted command ran, unasked, in the agent terminal', async () => {
      const command = panel.locator('.turn .run-tree > .tool-call[data-tool="run_command"]');
      expect(await command.getAttribute('data-state')).toBe('done');
      expect(await command.getAttribute('data-approval')).toBeNull();
      // In the OS sandbox (auto mode): where none can start, the run would carry a "sandbox" warning.
      const root = panel.locator('.message.assistant').first();
      expect(await root.locator('.message-warnings').count()).toBeGreaterThan(0);
      expect(await root.locator('.run-warning', { hasText: 'sandbox' }).count()).toBe(0);
      await wb.page
        .locator('.terminal-tab, .tabs-list .monaco-list-row, .single-terminal-tab', { hasText: 'Subagents' })
        .first()
        .waitFor({ timeout: 15_000 });
    });
  });
});
