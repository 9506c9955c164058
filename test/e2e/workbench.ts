import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type FrameLocator, type Locator, type Page } from 'playwright-core';
import { ARTIFACTS, EXTENSION_ID, findTools, type CodeServer } from './codeServer';

// The browser half of the harness: Debian's Chromium driven by playwright-core (never
// `playwright install`), one browser context reused by every test of a file, and the few
// workbench gestures the tests need. Every step that fails leaves a screenshot and the server log
// in test/.artifacts and says what it expected.

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

export class Workbench {
  /** The browser's console errors and uncaught page errors, newest last (for failure reports). */
  readonly consoleErrors: string[] = [];

  private constructor(
    readonly server: CodeServer,
    readonly browser: Browser,
    readonly context: BrowserContext,
    readonly page: Page,
  ) {
    const note = (text: string): void => {
      this.consoleErrors.push(text.slice(0, 500));
      if (this.consoleErrors.length > 200) this.consoleErrors.shift();
    };
    page.on('console', (message) => {
      if (message.type() === 'error') note(`console.error: ${message.text()}`);
    });
    page.on('pageerror', (error) => note(`page error: ${error.message}`));
  }

  /** Launches Chromium and opens the server's workspace; resolves when the workbench has rendered. */
  static async open(server: CodeServer): Promise<Workbench> {
    const browser = await chromium.launch({
      executablePath: findTools().chromium,
      headless: true,
      args: CHROMIUM_ARGS,
      // Keeps Chromium's crashpad and dconf files out of HOME.
      env: {
        ...process.env,
        XDG_CONFIG_HOME: join(server.runDir, 'browser', 'config'),
        XDG_CACHE_HOME: join(server.runDir, 'browser', 'cache'),
      },
    });
    try {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      const workbench = new Workbench(server, browser, context, page);
      await workbench.step('open the workbench', async () => {
        // As long as the workbench itself may take (below): on a loaded machine the first page load exceeds the default 30 s.
        await page.goto(server.workbenchUrl(), { waitUntil: 'domcontentloaded', timeout: 60_000 });
        await workbench.waitForWorkbench();
      });
      return workbench;
    } catch (error) {
      await browser.close().catch(() => undefined);
      throw error;
    }
  }

  /** The panel's document: the inner frame of our extension's webview. */
  panel(): FrameLocator {
    return this.page.frameLocator(this.webviewSelector()).frameLocator('#active-frame');
  }

  private webviewSelector(): string {
    return `iframe.webview[src*="extensionId=${EXTENSION_ID}"]`;
  }

  private async waitForWorkbench(): Promise<void> {
    await this.page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    // Our view container in the activity bar means the extension's contributions are registered.
    await this.page.locator('.part.activitybar [aria-label^="Subagents"]').first().waitFor({ timeout: 60_000 });
  }

  /**
   * Runs a command by its palette label. Retries while the command is not registered yet (the
   * palette lists a command only once its extension's contributions have loaded).
   */
  async runCommand(label: string): Promise<void> {
    const quickInput = this.page.locator('.quick-input-widget');
    for (let attempt = 0; attempt < 6; attempt++) {
      await this.page.keyboard.press('Escape');
      await this.page.keyboard.press('F1');
      await quickInput.locator('input').waitFor({ state: 'visible', timeout: 10_000 });
      await this.page.keyboard.type(label);
      const row = quickInput.locator('.monaco-list-row', { hasText: label }).first();
      try {
        await row.waitFor({ timeout: 2_000 });
      } catch {
        continue;
      }
      // The row that says it, not whichever the fuzzy match put first.
      await row.click();
      return;
    }
    throw new Error(`The command palette never offered "${label}".`);
  }

  /**
   * Shows the Subagents view and waits for its prompt. Uses the palette, not the activity-bar icon:
   * a click on an active icon collapses the side bar, and after a reload it races with the restore.
   */
  async showPanel(): Promise<FrameLocator> {
    if (
      !(await this.page
        .locator(this.webviewSelector())
        .isVisible()
        .catch(() => false))
    ) {
      await this.runCommand('View: Show Subagents');
    }
    const panel = this.panel();
    await panel.locator('#prompt').waitFor({ timeout: 60_000 });
    return panel;
  }

  /**
   * Chooses `label` in the side bar's "Views and More Actions..." menu (the view's `…`), where
   * `view/title` entries outside the navigation group are listed.
   */
  async viewMenu(label: string): Promise<void> {
    await this.page
      .locator('.part.sidebar .title-actions, .part.sidebar .pane-header .actions')
      .getByRole('button', { name: 'Views and More Actions...' })
      .first()
      .click();
    const item = this.page.locator('.monaco-menu .action-item', { hasText: label }).first();
    await item.waitFor({ timeout: 15_000 });
    await item.click();
  }

  /** The newest notification toast that says `text`. */
  notification(text: string): Locator {
    return this.page.locator('.notifications-toasts .notification-toast', { hasText: text }).last();
  }

  /** The quick pick or input box on screen. */
  quickInput(): Locator {
    return this.page.locator('.quick-input-widget');
  }

  /** Chooses the quick pick's row that says `label`. */
  async pick(label: string): Promise<void> {
    const row = this.quickInput().locator('.monaco-list-row', { hasText: label }).first();
    await row.waitFor({ timeout: 15_000 });
    await row.click();
  }

  /** A modal dialog's button (the editor's own confirmations). */
  dialogButton(label: string): Locator {
    return this.page.locator('.monaco-dialog-box .monaco-button', { hasText: label }).first();
  }

  /** The status bar entry whose text says `text`. */
  statusBarItem(text: string): Locator {
    return this.page.locator('.part.statusbar .statusbar-item', { hasText: text }).first();
  }

  /** "Ln 18, Col 1": where the cursor of the active editor is. */
  async cursorPosition(): Promise<string> {
    return (await this.page.locator('.statusbar-item[id="status.editor.selection"]').innerText()).trim();
  }

  /** The file name of the active editor's tab. */
  async activeEditorTitle(): Promise<string> {
    const label = (await this.page.locator('.editor-group-container.active .tab.active').first().getAttribute('aria-label')) ?? '';
    // "invoice.ts", or "invoice.ts, preview" and the like.
    return label.split(',')[0]!.trim();
  }

  /** Reloads the window (like "Developer: Reload Window") and waits for the workbench again. */
  async reload(): Promise<void> {
    await this.page.reload({ waitUntil: 'domcontentloaded', timeout: 60_000 });
    await this.waitForWorkbench();
  }

  /**
   * Runs one named step of a test. On failure: a screenshot and the server log go to
   * test/.artifacts, and the error says which step failed and where to look.
   */
  async step<T>(name: string, body: () => Promise<T>): Promise<T> {
    try {
      return await body();
    } catch (error) {
      const label = `${this.server.name}-${name.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}`;
      mkdirSync(ARTIFACTS, { recursive: true });
      const shot = join(ARTIFACTS, `${label}.png`);
      const saved = await this.page.screenshot({ path: shot }).then(
        () => shot,
        () => '(screenshot failed)',
      );
      const log = this.server.saveLog(label);
      const consolePath = join(ARTIFACTS, `${label}-console.log`);
      writeFileSync(consolePath, this.consoleErrors.join('\n') + '\n');
      const recent = this.consoleErrors
        .slice(-5)
        .map((line) => `\n    ${line}`)
        .join('');
      const message = error instanceof Error ? error.message : String(error);
      throw new Error(
        `Step "${name}" failed: ${message}\n  screenshot: ${saved}\n  code-server log: ${log}` +
          `\n  extension host logs: ${this.server.saveLogs(label)}\n  browser console errors: ${consolePath}${recent}`,
        { cause: error },
      );
    }
  }

  async close(): Promise<void> {
    await this.context.close().catch(() => undefined);
    await this.browser.close().catch(() => undefined);
  }
}
