import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CodeServer, REPO_ROOT } from './codeServer';
import { lastAnswer, runNode, sendButton } from './panelDom';
import { Workbench } from './workbench';

// Issue 42 item 3 in a real VS Code (code-server): a child whose edit failed ("oldText was not
// found") while its answer says it is done reads "done, 1 tool failed" in the warning's colour, and
// the supervisor is told (the delegation's result in the thread says the tool call failed); an edit
// still waiting for approval when the window reloads reads "cancelled (window reloaded)", not
// "denied by you", and the file is untouched.

const FIXTURE = join(REPO_ROOT, 'test', 'fixtures', 'failed-edit-workspace');
const PLAN = '# Plan\n\nShip it some day.\n';

/** The text of the workspace's thread files (JSONL under the extension's workspace storage). */
function threadText(server: CodeServer): string {
  return server
    .extensionStorageDirs()
    .map((dir) => join(dir, 'threads'))
    .filter((dir) => existsSync(dir))
    .flatMap((dir) => readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((file) => join(dir, file)))
    .filter((file) => file.endsWith('.jsonl') && statSync(file).isFile())
    .map((file) => readFileSync(file, 'utf8'))
    .join('\n');
}

/** Opens a run's node (its tool rows are drawn only while it is open). */
async function expand(node: Locator): Promise<void> {
  if ((await node.getAttribute('aria-expanded')) !== 'true') await node.locator('.run-header .run-agent').first().click();
  await expect.poll(() => node.getAttribute('aria-expanded'), { timeout: 15_000 }).toBe('true');
}

describe("a failed edit's and a reloaded approval's states in a real VS Code", () => {
  let server: CodeServer | undefined;
  let workbench: Workbench | undefined;

  beforeAll(async () => {
    server = await CodeServer.start({ name: 'failed-edit', fixture: FIXTURE });
    workbench = await Workbench.open(server);
  });

  afterAll(async () => {
    await workbench?.close();
    await server?.stop();
  });

  it('a failed edit reads "done, 1 tool failed" and the supervisor is told; a reload cancels a waiting edit', async () => {
    const wb = workbench!;
    const srv = server!;
    const plan = join(srv.workspace, 'notes', 'plan.md');
    let panel = await wb.step('open the Subagents view', () => wb.showPanel());

    await wb.step('ask for an edit whose oldText is not in the file', async () => {
      await panel.locator('#prompt').click();
      await wb.page.keyboard.type('Tighten the plan');
      await sendButton(panel).click();
      await lastAnswer(panel, 'ok').waitFor({ timeout: 60_000 });
      expect(readFileSync(plan, 'utf8')).toBe(PLAN);
    });

    await wb.step('the child\'s node reads "done, 1 tool failed" in the warning\'s colour, not a green done', async () => {
      const editor = runNode(panel, 'editor');
      await expect.poll(() => editor.getAttribute('data-state'), { timeout: 30_000 }).toBe('ok');
      const state = editor.locator('.run-state').first();
      await expect.poll(() => state.innerText(), { timeout: 15_000 }).toBe('done, 1 tool failed');
      expect(await state.getAttribute('class')).toBe('run-state run-failed-tools');
      expect(await state.getAttribute('data-failed-tools')).toBe('1');
      // The state's colour is the theme's warning colour, as the page resolves it.
      const colours = await state.evaluate((el) => {
        const view = el.ownerDocument.defaultView!;
        const warning = view.getComputedStyle(el).getPropertyValue('--vscode-editorWarning-foreground').trim();
        const probe = el.ownerDocument.createElement('span');
        probe.style.color = warning;
        el.append(probe);
        const expected = view.getComputedStyle(probe).color;
        probe.remove();
        return { warning, expected, shown: view.getComputedStyle(el).color };
      });
      expect(colours.warning, 'the theme defines a warning colour').not.toBe('');
      expect(colours.shown).toBe(colours.expected);
      await expand(editor);
      await editor.locator('.tool-summary', { hasText: 'failed: oldText was not found' }).waitFor({ timeout: 15_000 });
    });

    await wb.step('the supervisor is told: the delegation result in the thread says the tool call failed', () =>
      expect
        .poll(() => threadText(srv), { timeout: 15_000, message: 'a thread file with the toolFailures note of delegate_task' })
        .toContain('1 of its tool calls failed'),
    );

    await wb.step("in a new thread, a child's edit waits for approval", async () => {
      await wb.runCommand('Subagents: New Thread');
      panel = wb.panel();
      await panel.locator('#prompt').click();
      await wb.page.keyboard.type('Set the date to Friday');
      await sendButton(panel).click();
      await wb.statusBarItem('Approval waiting').waitFor({ timeout: 60_000 });
    });

    await wb.step('reload the window: the waiting edit reads "cancelled (window reloaded)", not "denied by you"', async () => {
      await wb.reload();
      panel = await wb.showPanel();
      await panel.locator('.message.user', { hasText: 'Set the date to Friday' }).waitFor({ timeout: 60_000 });
      const editor = runNode(panel, 'editor');
      await editor.waitFor({ timeout: 60_000 });
      await expand(editor);
      await editor.locator('.tool-summary', { hasText: 'cancelled (window reloaded)' }).waitFor({ timeout: 60_000 });
      const text = await editor.evaluate((el) => el.textContent ?? '');
      expect(text).not.toContain('denied by you');
      expect(text).not.toContain('Do not retry');
      expect(readFileSync(plan, 'utf8')).toBe(PLAN);
    });
  });
});
