import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CodeServer, REPO_ROOT } from './codeServer';
import { Workbench } from './workbench';

// See and undo one child's work in a real VS Code: a child edits a file; its node says so; the
// file opens in VS Code's diff editor from the node (the before side a read-only snapshot); and
// "Revert this run's changes" puts the file back.

const FIXTURE = join(REPO_ROOT, 'test', 'fixtures', 'changes-workspace');

describe("a child's changes in a real VS Code", () => {
  let server: CodeServer | undefined;
  let workbench: Workbench | undefined;

  beforeAll(async () => {
    // Edits run unasked: the user's own setting (a workspace may not set it).
    server = await CodeServer.start({ name: 'changes', fixture: FIXTURE, userSettings: { 'subagents.approval': 'autoEdit' } });
    workbench = await Workbench.open(server);
  });

  afterAll(async () => {
    await workbench?.close();
    await server?.stop();
  });

  it("shows the edit on the child's node, opens its diff, and reverts it", async () => {
    const wb = workbench!;
    const plan = join(server!.workspace, 'notes', 'plan.md');
    const panel = await wb.step('open the Subagents view', () => wb.showPanel());
    await wb.step('send the prompt and wait for the answer', async () => {
      await panel.locator('#prompt').click();
      await wb.page.keyboard.type('Tighten the plan');
      await panel.locator('#send').click();
      await panel.locator('.message.assistant[data-state="ok"]').waitFor({ timeout: 60_000 });
      expect(readFileSync(plan, 'utf8')).toBe('# Plan\n\nShip it on Friday.\n');
    });

    const editor = panel.locator('.run-tree [role="treeitem"][data-agent="editor"]');
    await wb.step("see the change counted on the child's node", async () => {
      await editor.locator('.run-changes-chip', { hasText: '1 file changed (+1 −1)' }).waitFor({ timeout: 15_000 });
      await editor.locator('.run-header .run-agent').click();
      await editor.locator('.run-change-file', { hasText: 'notes/plan.md' }).waitFor({ timeout: 15_000 });
    });

    await wb.step('open its diff: before from the snapshot, after the file', async () => {
      await editor.locator('.run-change-file', { hasText: 'notes/plan.md' }).click();
      const diff = wb.page.locator('.monaco-diff-editor');
      await diff.waitFor({ timeout: 30_000 });
      await wb.page
        .locator('.tab', { hasText: /plan\.md \(run r_\w+\)/ })
        .first()
        .waitFor({ timeout: 15_000 });
      await diff.locator('.editor.original .view-lines', { hasText: 'Ship it some day.' }).waitFor({ timeout: 15_000 });
      await diff.locator('.editor.modified .view-lines', { hasText: 'Ship it on Friday.' }).waitFor({ timeout: 15_000 });
    });

    await wb.step("revert the child's changes: the file is as it was", async () => {
      await editor.locator('.revert-run').click();
      await panel.locator('.problem-text', { hasText: 'Reverted notes/plan.md.' }).waitFor({ timeout: 30_000 });
      expect(readFileSync(plan, 'utf8')).toBe('# Plan\n\nShip it some day.\n');
    });
  });
});
