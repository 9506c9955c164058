import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CodeServer, REPO_ROOT } from '../codeServer';
import { lastAnswer, runNode, sendButton } from '../panelDom';
import { Workbench } from '../workbench';

// The README's screenshots, from the real thing: the demo workspace in code-server at 1400x900,
// the panel in the dark, light and high-contrast themes, and at 300 px. Run by
// `npm run screenshots` only (scripts/screenshots.mjs); never part of `npm test`.

const FIXTURE = join(REPO_ROOT, 'test', 'fixtures', 'demo-workspace');
const PROMPT = 'How are invoice totals computed, and is the rounding right?';
const THEMES = {
  dark: { theme: 'Default Dark Modern', label: 'Dark Modern', workbenchClass: 'vs-dark' },
  light: { theme: 'Default Light Modern', label: 'Light Modern', workbenchClass: 'vs' },
  'high-contrast': { theme: 'Default High Contrast', label: 'Dark High Contrast', workbenchClass: 'hc-black' },
} as const;

describe('README screenshots', () => {
  let server: CodeServer | undefined;
  let workbench: Workbench | undefined;

  beforeAll(async () => {
    server = await CodeServer.start({ name: 'screenshots', fixture: FIXTURE, userSettings: { 'workbench.colorTheme': THEMES.dark.theme } });
    workbench = await Workbench.open(server);
    await workbench.page.setViewportSize({ width: 1400, height: 900 });
  });

  afterAll(async () => {
    await workbench?.close();
    await server?.stop();
  });

  /** Drags the side bar's edge until the side bar is `width` px wide. */
  async function sidebarWidth(width: number): Promise<void> {
    const page = workbench!.page;
    const sidebar = page.locator('.part.sidebar');
    const box = (await sidebar.boundingBox())!;
    const y = box.y + box.height / 2;
    await page.mouse.move(box.x + box.width + 1, y);
    await page.mouse.down();
    await page.mouse.move(box.x + width, y, { steps: 8 });
    await page.mouse.up();
    await expect
      .poll(async () => Math.abs(((await sidebar.boundingBox())?.width ?? 0) - width), { timeout: 10_000 })
      .toBeLessThanOrEqual(2);
  }

  /** Switches the color theme as a user would, through its picker. */
  async function theme(name: keyof typeof THEMES): Promise<void> {
    await workbench!.runCommand('Preferences: Color Theme');
    await workbench!.page.keyboard.type(THEMES[name].label);
    await workbench!.quickInput().locator('.monaco-list-row.focused', { hasText: THEMES[name].label }).waitFor({ timeout: 15_000 });
    await workbench!.page.keyboard.press('Enter');
    await workbench!.page.locator(`.monaco-workbench.${THEMES[name].workbenchClass}`).waitFor({ timeout: 30_000 });
  }

  async function shoot(name: string): Promise<void> {
    const path = join(REPO_ROOT, 'media', `screenshot-${name}.png`);
    // Playwright waits for fonts; animations (the spinners) are stopped at their start.
    await workbench!.page.locator('.part.sidebar').screenshot({ path, animations: 'disabled' });
    console.log(`screenshots: ${path}`);
  }

  it('takes the panel in three themes and at 300 px', async () => {
    const wb = workbench!;
    const panel = await wb.step('open the panel and ask', async () => {
      const shown = await wb.showPanel();
      await sidebarWidth(460);
      await shown.locator('#prompt').click();
      await wb.page.keyboard.type(PROMPT);
      await sendButton(shown).click();
      return shown;
    });

    await wb.step('dark: the answer, two subagents done, the fixer waiting for approval', async () => {
      await wb.statusBarItem('Approval waiting').waitFor({ timeout: 60_000 });
      await lastAnswer(panel).filter({ hasText: 'I will report back' }).waitFor({ timeout: 60_000 });
      await runNode(panel, 'fixer').scrollIntoViewIfNeeded();
      await shoot('dark');
    });

    await wb.step('approve in the panel and let the fixer report back', async () => {
      await runNode(panel, 'fixer').locator('button, vscode-button', { hasText: 'Approve once' }).first().click();
      await lastAnswer(panel, 'ok').waitFor({ timeout: 60_000 });
      await lastAnswer(panel).scrollIntoViewIfNeeded();
    });

    await wb.step('light and high contrast', async () => {
      await theme('light');
      await shoot('light');
      await theme('high-contrast');
      await shoot('high-contrast');
    });

    await wb.step('dark at 300 px', async () => {
      await theme('dark');
      await sidebarWidth(300);
      await shoot('300px');
    });
  });
});
