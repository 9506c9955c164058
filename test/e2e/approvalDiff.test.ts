import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FrameLocator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CodeServer, REPO_ROOT } from './codeServer';
import { lastAnswer, prompt, sendButton } from './panelDom';
import { Workbench } from './workbench';

// Issue 42 item 2 in a real VS Code: an edit that waits for approval shows its diff in the panel's
// approval box (the path, "+3 −2", the first lines with + and −), "Open diff" opens VS Code's
// diff editor on the proposed change, the notification says it in one line, and after Approve the
// keyboard goes to the next approval still waiting, then to the prompt box: never to <body>.

const FIXTURE = join(REPO_ROOT, 'test', 'fixtures', 'control-workspace');
const MONEY = [
  'export function total(items: number[]): number {',
  '  let sum = 0;',
  '  for (const item of items) sum += item;',
  '  return sum;',
  '}',
  '',
].join('\n');
const OLD_TEXT = '  let sum = 0;\n  for (const item of items) sum += item;';
const NEW_TEXT = '  let cents = 0;\n  for (const item of items) cents += Math.round(item * 100);\n  const sum = cents / 100;';
const normalize = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** The id of the panel's focused element ('' when it has none, 'BODY' when focus fell to the body). */
function focusedInPanel(panel: FrameLocator): Promise<string> {
  return panel.locator('body').evaluate((body) => {
    const active = body.ownerDocument.activeElement;
    if (!active || active === body) return 'BODY';
    return active.id || `.${[...active.classList].join('.')}`;
  });
}

describe('an edit waiting for approval shows its diff (issue 42, item 2)', () => {
  let fixture: string | undefined;
  let server: CodeServer | undefined;
  let workbench: Workbench | undefined;

  beforeAll(async () => {
    fixture = mkdtempSync(join(tmpdir(), 'subagents-approval-diff-fixture-'));
    cpSync(FIXTURE, fixture, { recursive: true });
    mkdirSync(join(fixture, 'src'), { recursive: true });
    writeFileSync(join(fixture, 'src', 'money.ts'), MONEY);
    writeFileSync(join(fixture, 'src', 'notes.md'), '# Notes\n');
    mkdirSync(join(fixture, '.vscode'), { recursive: true });
    // Two edits of one step: both wait for the user at once.
    writeFileSync(
      join(fixture, '.vscode', 'diff-script.json'),
      JSON.stringify({
        agents: {
          supervisor: [
            {
              toolCalls: [
                { tool: 'edit_file', input: { path: 'src/money.ts', oldText: OLD_TEXT, newText: NEW_TEXT } },
                { tool: 'write_file', input: { path: 'src/notes.md', content: '# Notes\n\nTotals are summed in cents.\n' } },
              ],
            },
            { text: 'Totals are now summed in cents.' },
          ],
        },
      }),
    );
    writeFileSync(join(fixture, '.vscode', 'settings.json'), JSON.stringify({ 'subagents.model': 'scripted:.vscode/diff-script.json' }));
    server = await CodeServer.start({ name: 'approval-diff', fixture });
    workbench = await Workbench.open(server);
  });

  afterAll(async () => {
    await workbench?.close();
    await server?.stop();
    if (fixture) rmSync(fixture, { recursive: true, force: true });
  });

  it('shows the diff in the approval box, opens it in a diff editor, and moves focus on after Approve', async () => {
    const wb = workbench!;
    const money = join(server!.workspace, 'src', 'money.ts');
    let panel = await wb.step('open the Subagents view', () => wb.showPanel());
    await wb.step('send the prompt', async () => {
      await prompt(panel).click();
      await wb.page.keyboard.type('Sum the totals in cents');
      await sendButton(panel).click();
    });

    const edit = panel.locator('.tool-call[data-tool="edit_file"]');
    const write = panel.locator('.tool-call[data-tool="write_file"]');
    await wb.step('see the edit\'s approval box with its path, "+3 −2" and the lines with + and −', async () => {
      const diff = edit.locator('.approval .approval-diff');
      await diff.waitFor({ timeout: 60_000 });
      expect(await diff.locator('.approval-diff-path').innerText()).toBe('src/money.ts');
      expect(normalize(await diff.locator('.approval-diff-counts').innerText())).toBe('+3 −2');
      const lines = await diff.locator('.approval-diff-lines .diff-line').allInnerTexts();
      const changed = lines.map((l) => l.replace(/\n$/, '')).filter((l) => l.startsWith('+') || l.startsWith('−'));
      expect(changed).toEqual([
        '−   let sum = 0;',
        '−   for (const item of items) sum += item;',
        '+   let cents = 0;',
        '+   for (const item of items) cents += Math.round(item * 100);',
        '+   const sum = cents / 100;',
      ]);
      // The other call of the step waits too, with its own box (a new file's content).
      await write.locator('.approval .approve').waitFor({ timeout: 30_000 });
      expect(readFileSync(money, 'utf8')).toBe(MONEY);
    });

    await wb.step('"Open diff" opens the proposed change in a diff editor', async () => {
      await edit.locator('.approval-open-diff').click();
      const tab = wb.page.locator('.editor-group-container .tab', { hasText: 'money.ts' }).first();
      await tab.waitFor({ timeout: 30_000 });
      // The tab names the file once and says what the diff is (issue 42 item 6; VS Code adds the name again only to the aria label).
      expect(normalize(await tab.innerText())).toBe('money.ts (proposed edit)');
      expect(await tab.getAttribute('aria-label')).toContain('money.ts (proposed edit)');
      const diffEditor = wb.page.locator('.monaco-diff-editor').first();
      await diffEditor.waitFor({ timeout: 30_000 });
      await diffEditor.locator('.modified .view-lines', { hasText: 'const sum = cents / 100;' }).waitFor({ timeout: 30_000 });
      await diffEditor.locator('.original .view-lines', { hasText: 'sum += item;' }).waitFor({ timeout: 30_000 });
    });

    await wb.step('the notification says it in one line, without repeating itself', async () => {
      // Notifications are for approvals the user cannot see: the panel goes out of view first.
      await wb.runCommand('View: Show Explorer');
      const toast = wb.notification('wants to edit src/money.ts');
      await toast.waitFor({ timeout: 30_000 });
      const message = normalize(await toast.locator('.notification-list-item-message').innerText());
      expect(message).toBe('Subagents: supervisor wants to edit src/money.ts (+3 −2).');
    });

    await wb.step("approve the edit: it is written, and the keyboard is on the other call's Approve, not on <body>", async () => {
      panel = await wb.showPanel();
      await edit.locator('.approval .approve').click();
      await expect.poll(() => readFileSync(money, 'utf8'), { timeout: 30_000 }).toContain('const sum = cents / 100;');
      await expect.poll(() => edit.getAttribute('data-state'), { timeout: 30_000 }).toBe('done');
      const focused = await write.locator('.approval .approve').evaluate((el) => el === el.ownerDocument.activeElement);
      expect(focused).toBe(true);
    });

    await wb.step('approve the other with the keyboard (Enter on the focused button): then the prompt box has the keyboard', async () => {
      await wb.page.keyboard.press('Enter');
      await lastAnswer(panel, 'ok').waitFor({ timeout: 60_000 });
      expect(readFileSync(join(server!.workspace, 'src', 'notes.md'), 'utf8')).toBe('# Notes\n\nTotals are summed in cents.\n');
      expect(await focusedInPanel(panel)).toBe('prompt');
    });
  });
});
