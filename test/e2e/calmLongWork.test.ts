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
// and no description of ours takes more than three lines there; the model's link to the README
// (a command link) opens the README shipped in the extension, in the Markdown preview at its
// section "Configure a model"; settings.json's hover shows the same pointer as words (the JSON
// extension's hovers are untrusted Markdown: the link is text there, not a command URL); and
// "Subagents: Open README" from the palette brings that preview back to the top.

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

  it('folds long tool output, prints the run tree as text, proposes an export outside the workspace, orders the settings, links them to the README', async () => {
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

    await wb.step(
      `"Subagents: Model"'s link to the README opens the README shipped in the extension in the Markdown preview, at "Configure a model"`,
      async () => {
        // Escape closed the Settings page above (this VS Code shows it as a modal editor).
        await wb.runCommand('Preferences: Open Settings (UI)');
        const editor = page.locator('.settings-editor');
        await editor.locator('.settings-header .suggest-input-container').first().click();
        await page.keyboard.press('ControlOrMeta+A');
        await page.keyboard.type('@id:subagents.model');
        await editor.locator('.settings-count-widget', { hasText: '1 Setting Found' }).waitFor({ timeout: 30_000 });
        const model = editor.locator('.settings-tree-container .setting-item-contents', { hasText: 'Subagents: Model' });
        const link = model.locator('.setting-item-markdown a', { hasText: `the README's "Configure a model"` });
        await link.waitFor({ timeout: 15_000 });
        expect(await link.getAttribute('data-href')).toBe('command:subagents.openReadme?%5B%22configure-a-model%22%5D');
        await link.click();
        // The preview is the built-in Markdown extension's webview; its document is the inner frame.
        const tab = page.locator('.editor-group-container.active .tab.active');
        await expect.poll(async () => (await tab.getAttribute('aria-label')) ?? '', { timeout: 30_000 }).toMatch(/^Preview readme\.md/i);
        const preview = page
          .frameLocator('iframe.webview[src*="extensionId=vscode.markdown-language-features"]')
          .frameLocator('#active-frame');
        const heading = preview.locator('h2#configure-a-model');
        await heading.waitFor({ timeout: 30_000 });
        // Scrolled there: "Configure a model" at the top of the preview, the section before it scrolled past.
        const tops = () =>
          heading.evaluate((h) => {
            const before = h.ownerDocument.getElementById('two-commands-on-a-fresh-clone');
            return { heading: Math.round(h.getBoundingClientRect().top), before: Math.round(before?.getBoundingClientRect().top ?? NaN) };
          });
        await expect
          .poll(
            async () => {
              const { heading: top, before } = await tops();
              return top >= -5 && top < 120 && before < 0;
            },
            { timeout: 15_000 },
          )
          .toBe(true);
      },
    );

    await wb.step("settings.json's hover on subagents.model reads the pointer as words, not a command URL", async () => {
      // The workspace's .vscode/settings.json sets subagents.model (the scripted model): hovered as it is, not edited.
      await wb.runCommand('Preferences: Open Workspace Settings (JSON)');
      const lines = page.locator('.monaco-editor .view-lines', { hasText: 'calm-script.json' }).first();
      await lines.waitFor({ timeout: 30_000 });
      await lines
        .locator('span', { hasText: /^"subagents\.model"$/ })
        .first()
        .hover();
      const hover = page.locator('.monaco-hover:visible', { hasText: 'The model for the supervisor' }).first();
      await hover.waitFor({ timeout: 30_000 });
      const text = normalize(await hover.innerText());
      expect(text).toContain(`See the README's "Configure a model".`);
      expect(text).not.toContain('command:');
    });

    await wb.step('"Subagents: Open README" from the palette brings the open preview back to the top', async () => {
      const preview = page
        .frameLocator('iframe.webview[src*="extensionId=vscode.markdown-language-features"]')
        .frameLocator('#active-frame');
      const titleTop = () => preview.locator('h1#subagents-for-vs-code').evaluate((h) => Math.round(h.getBoundingClientRect().top));
      // Still at "Configure a model" from the link: the title is scrolled out above.
      expect(await titleTop()).toBeLessThan(-5);
      await wb.runCommand('Subagents: Open README');
      await expect.poll(async () => Math.abs(await titleTop()) < 120, { timeout: 15_000 }).toBe(true);
    });
  });
});

/** How many settings the extension declares (package.json), each of which the Settings page should list. */
function settingsCount(): number {
  const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
    contributes: { configuration: { properties: Record<string, unknown> } };
  };
  return Object.keys(manifest.contributes.configuration.properties).length;
}
