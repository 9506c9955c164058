import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FrameLocator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CodeServer, REPO_ROOT } from './codeServer';
import { Workbench } from './workbench';

// See and undo one child's work in a real VS Code: a child loads a skill (its node names it) and
// edits a file; its node says so; the file opens in VS Code's diff editor from the node (the before
// side a read-only snapshot); "Revert this run's changes" puts the file back; the node then reads
// "changes reverted" with no second revert, the notice stays with its thread, and a reload keeps
// the node reverted (issue 42).

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

    await wb.step('see the skill the child loaded on its node, by name (issue 42 item 7)', async () => {
      await expect.poll(() => editor.evaluate((el) => el.textContent ?? ''), { timeout: 15_000 }).toContain('Loaded the skill plan-style');
      expect(await editor.evaluate((el) => el.textContent ?? '')).not.toContain('load_skill');
    });

    await wb.step('open its diff: before from the snapshot, after the file', async () => {
      await editor.locator('.run-change-file', { hasText: 'notes/plan.md' }).click();
      const diff = wb.page.locator('.monaco-diff-editor');
      await diff.waitFor({ timeout: 30_000 });
      await wb.page.locator('.tab', { hasText: 'plan.md (changes of editor)' }).first().waitFor({ timeout: 15_000 });
      await diff.locator('.editor.original .view-lines', { hasText: 'Ship it some day.' }).waitFor({ timeout: 60_000 });
      await diff.locator('.editor.modified .view-lines', { hasText: 'Ship it on Friday.' }).waitFor({ timeout: 60_000 });
    });

    await wb.step("revert the child's changes: the file is as it was", async () => {
      await editor.locator('.revert-run').click();
      await panel.locator('.problem-text', { hasText: 'Reverted notes/plan.md.' }).waitFor({ timeout: 30_000 });
      expect(readFileSync(plan, 'utf8')).toBe('# Plan\n\nShip it some day.\n');
    });

    // Issue 42 item 3: after the revert the node says "changes reverted", not its count, and offers
    // no second revert (its note says there is nothing left to undo); after a reload it still does.
    const expectReverted = async (shown: FrameLocator, where: string): Promise<void> => {
      const node = shown.locator('.run-tree [role="treeitem"][data-agent="editor"]');
      const chip = node.locator('.run-changes-chip');
      await expect
        .poll(async () => (await chip.innerText()).trim(), { timeout: 30_000, message: `the chip ${where}` })
        .toBe('changes reverted');
      expect(await chip.getAttribute('class')).toContain('reverted');
      if (!(await node.locator('.run-change-file').first().isVisible())) await node.locator('.run-header .run-agent').click();
      await node.locator('.run-change-file', { hasText: 'notes/plan.md' }).waitFor({ timeout: 15_000 });
      expect(await node.locator('.run-change-file').first().innerText()).toContain('· reverted');
      await node
        .locator('.run-changes-note', { hasText: "Reverted: this run's files are as they were before it." })
        .waitFor({ timeout: 15_000 });
      expect(await node.locator('.revert-run').count(), `no second "Revert this run's changes" ${where}`).toBe(0);
    };

    await wb.step('the node reads "changes reverted": no count, no second revert', () => expectReverted(panel, 'after the revert'));

    await wb.step('the revert notice stays with its thread: gone in a new thread, back in this one', async () => {
      const notice = panel.locator('.problem-text', { hasText: 'Reverted notes/plan.md.' });
      await wb.runCommand('Subagents: New Thread');
      await expect.poll(() => notice.isVisible(), { timeout: 15_000 }).toBe(false);
      await wb.runCommand('Subagents: Open Thread…');
      await wb.pick('Tighten the plan');
      await panel.locator('.message.user', { hasText: 'Tighten the plan' }).waitFor({ timeout: 30_000 });
      await expect.poll(() => notice.isVisible(), { timeout: 15_000 }).toBe(true);
    });

    await wb.step('reload the window: the node still reads "changes reverted"', async () => {
      await wb.reload();
      const reloaded = await wb.showPanel();
      await reloaded.locator('.message.user', { hasText: 'Tighten the plan' }).waitFor({ timeout: 60_000 });
      await expectReverted(reloaded, 'after a reload');
      expect(readFileSync(plan, 'utf8')).toBe('# Plan\n\nShip it some day.\n');
    });
  });
});
