import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CodeServer, EXTENSION_ID, REPO_ROOT } from './codeServer';
import { lastAnswer, prompt, sendButton } from './panelDom';
import { Workbench } from './workbench';

// Issue 42 item 6 in a real VS Code (code-server): calm for long work. The scripted model reads
// 40 lines of src/ledger.ts and searches src/ for TODO (51 matches): in the panel both outputs
// are folded to twenty lines or items behind a count, and "show all" opens them in place. Show
// Run Tree prints those calls as readable lines, not JSON. Export Thread… proposes a folder
// outside the workspace (commands.test.ts proves it is not the workspace root; here: not inside
// it at all, and the user's Downloads or home). The Settings page lists our model setting first,
// and no description of ours takes more than three lines there.

const FIXTURE = join(REPO_ROOT, 'test', 'fixtures', 'calm-workspace');
const QUESTION = 'Summarise the open work in src';
const normalize = (text: string): string => text.replace(/\s+/g, ' ').trim();

describe('calm for long work (issue 42 item 6)', () => {
  let server: CodeServer | undefined;
  let workbench: Workbench | undefined;

  beforeAll(async () => {
    server = await CodeServer.start({ name: 'calm-long-work', fixture: FIXTURE });
    workbench = await Workbench.open(server);
  });

  afterAll(async () => {
    await workbench?.close();
    await server?.stop();
  });

  it('folds long tool output, prints the run tree as text, proposes an export outside the workspace, orders the settings', async () => {
    const wb = workbench!;
    const page = wb.page;
    const panel = await wb.step('open the Subagents view', () => wb.showPanel());

    await wb.step('ask; the supervisor reads 40 lines and finds 51 TODOs', async () => {
      await prompt(panel).click();
      await page.keyboard.type(QUESTION);
      await sendButton(panel).click();
      await lastAnswer(panel, 'ok').waitFor({ timeout: 60_000 });
    });

    /** A tool call of the conversation, by its tool, opened to its detail. */
    async function openCall(tool: string): Promise<Locator> {
      const call = panel.locator(`.tool-call[data-tool="${tool}"]`).first();
      await call.waitFor({ timeout: 15_000 });
      // Its state icon, not the middle of the row: that is the file's link, which opens the file instead.
      if ((await call.getAttribute('aria-expanded')) !== 'true') await call.locator('.tool-row > i').first().click();
      await expect.poll(() => call.getAttribute('aria-expanded'), { timeout: 10_000 }).toBe('true');
      const detail = call.locator('.tool-detail');
      await detail.waitFor({ timeout: 10_000 });
      return detail;
    }

    await wb.step('the 51 matches are folded to 20 behind "51 matches, show all", which opens them in place', async () => {
      const detail = await openCall('search_text');
      const items = detail.locator('.detail-list li');
      const button = detail.locator('button.show-all');
      await expect.poll(() => button.innerText(), { timeout: 10_000 }).toBe('51 matches, show all');
      expect(await items.count()).toBe(20);
      await button.click();
      await expect.poll(() => items.count(), { timeout: 10_000 }).toBe(51);
      expect(await detail.locator('button.show-all').count()).toBe(0);
      expect(normalize(await items.last().innerText())).toBe('src/todo.ts:52: // TODO task 51');
    });

    await wb.step('the 40 lines read are folded to 20 behind "40 lines, show all", which opens them in place', async () => {
      const detail = await openCall('read_file');
      const text = detail.locator('.detail-text');
      const button = detail.locator('button.show-all');
      await expect.poll(() => button.innerText(), { timeout: 10_000 }).toBe('40 lines, show all');
      expect((await text.innerText()).replace(/\n$/, '').split('\n')).toHaveLength(20);
      expect(await text.innerText()).not.toContain('entry20 ');
      await button.click();
      await expect.poll(async () => (await text.innerText()).replace(/\n$/, '').split('\n').length, { timeout: 10_000 }).toBe(40);
      expect(await text.innerText()).toContain('export const entry39 = 39;');
    });

    await wb.step('Show Run Tree prints the calls as readable lines, not JSON', async () => {
      await wb.runCommand('Subagents: Show Run Tree');
      const lines = page.locator('.editor-group-container.active .view-lines');
      await lines.filter({ hasText: 'Read src/ledger.ts' }).waitFor({ timeout: 15_000 });
      const tree = normalize(await lines.innerText());
      expect(tree).toContain(`supervisor [ok] ${QUESTION}`);
      expect(tree).toContain('- Read src/ledger.ts lines 1–40');
      expect(tree).toContain('- Searched for TODO in src/** · 51 matches');
      expect(tree).not.toMatch(/\{\s*"(path|pattern)"/);
    });

    await wb.step('Export Thread… proposes the Downloads or home folder, outside the workspace', async () => {
      await wb.runCommand('Subagents: Export Thread');
      await wb.pick('Markdown');
      const input = wb.quickInput().locator('input');
      await expect.poll(() => input.inputValue(), { timeout: 15_000 }).toMatch(/summarise-the-open-work-in-src\.md$/);
      const folder = dirname(await input.inputValue());
      const inside = relative(server!.workspace, folder);
      expect(inside === '' || !inside.startsWith('..'), `${folder} is inside the workspace`).toBe(false);
      const downloads = join(homedir(), 'Downloads');
      expect(folder).toBe(existsSync(downloads) ? downloads : homedir());
      // Nothing is written: the dialog is closed unanswered.
      await page.keyboard.press('Escape');
      await wb.quickInput().waitFor({ state: 'hidden', timeout: 10_000 });
    });

    await wb.step(
      'the Settings page lists the model first among ours, and no description of ours takes more than three lines',
      async () => {
        await wb.runCommand('Preferences: Open Settings (UI)');
        const editor = page.locator('.settings-editor');
        await editor.locator('.settings-header .suggest-input-container').first().click();
        await page.keyboard.type(`@ext:${EXTENSION_ID}`);
        const total = settingsCount();
        await editor.locator('.settings-count-widget', { hasText: `${total} Settings Found` }).waitFor({ timeout: 30_000 });
        const items = editor.locator('.settings-tree-container .setting-item-contents');
        await items.first().waitFor({ timeout: 15_000 });
        /**
         * The settings the page has drawn, top to bottom: each one's title ("Subagents: Model") and
         * how many lines its description takes on screen (its text's boxes, grouped by the line they
         * sit on).
         */
        const measureSettings = () =>
          items.evaluateAll((els) => {
            const textOf = (el: { innerText?: string } | null): string => (el?.innerText ?? '').replace(/\s+/g, ' ').trim();
            return els
              .map((el) => {
                const title =
                  `${textOf(el.querySelector('.setting-item-category'))} ${textOf(el.querySelector('.setting-item-label'))}`.trim();
                // A checkbox's setting has its description beside the box.
                const description = [...el.querySelectorAll('.setting-item-value-description, .setting-item-description')].find(
                  (d) => textOf(d) !== '',
                );
                const boxes: { top: number; height: number }[] = [];
                if (description) {
                  const walker = el.ownerDocument.createTreeWalker(description, 4 /* NodeFilter.SHOW_TEXT */);
                  for (let text = walker.nextNode(); text; text = walker.nextNode()) {
                    const range = el.ownerDocument.createRange();
                    range.selectNodeContents(text);
                    for (const r of range.getClientRects()) if (r.width > 0) boxes.push({ top: r.top, height: r.height });
                  }
                }
                boxes.sort((a, b) => a.top - b.top);
                let lines = 0;
                let lineTop = -Infinity;
                for (const b of boxes) {
                  if (b.top > lineTop + b.height / 2) {
                    lines++;
                    lineTop = b.top;
                  }
                }
                return { top: el.getBoundingClientRect().top, title, lines };
              })
              .sort((a, b) => a.top - b.top)
              .map(({ title, lines }) => ({ title, lines }));
          });
        // The list draws only the rows in view: it is scrolled (a round ends when a row comes or goes), and each setting measured once it is drawn.
        const lines = new Map<string, number>();
        const order: string[] = [];
        await editor.locator('.settings-tree-container').hover();
        for (let round = 0; round < 120; round++) {
          const drawn = await measureSettings();
          for (const d of drawn)
            if (!lines.has(d.title)) {
              lines.set(d.title, d.lines);
              order.push(d.title);
            }
          if (lines.size >= total) break;
          const before = drawn.map((d) => d.title).join('|');
          // Scrolled on until a row comes into view that was not drawn before (the list scrolls smoothly, a wheel at a time).
          await expect
            .poll(
              async () => {
                await page.mouse.wheel(0, 300);
                return (await measureSettings()).map((d) => d.title).join('|');
              },
              { timeout: 15_000 },
            )
            .not.toBe(before);
        }
        expect(order[0]).toBe('Subagents: Model');
        expect(lines.size, `the settings seen: ${order.join(', ')}`).toBe(total);
        expect(
          [...lines].filter(([, n]) => n < 1 || n > 3),
          'settings whose description is missing or longer than three lines',
        ).toEqual([]);
        await page.keyboard.press('Escape');
      },
    );
  });
});

/** How many settings the extension declares (package.json), each of which the Settings page should list. */
function settingsCount(): number {
  const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
    contributes: { configuration: { properties: Record<string, unknown> } };
  };
  return Object.keys(manifest.contributes.configuration.properties).length;
}
