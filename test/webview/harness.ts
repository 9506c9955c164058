import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { bundleOptions } from '../../scripts/bundles.mjs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium';
import { servePanel } from './panelServer';
import type { HostToWebview, WebviewToHost } from '../../src/shared/protocol';
export { bigTree, stateMessage, ThreadScript, TRUSTED_CONFIG } from './threadScript';

/**
 * The webview tests' fixture: the real panel HTML (renderPanelHtml, real nonce and CSP) and a fresh
 * in-memory build of webview/main.ts, served over 127.0.0.1 to Debian's headless Chromium, with a
 * fake acquireVsCodeApi that records what the webview posts. Host messages are dispatched as the
 * MessageEvents VS Code delivers.
 */

const ROOT = join(import.meta.dirname, '..', '..');

/** The webview bundle and its stylesheet, built with esbuild.mjs's own options; the metafile shows what the script holds. */
export async function bundleWebview(): Promise<{ js: string; css: string; inputs: string[] }> {
  const only = { write: false, outdir: undefined, sourcemap: false, metafile: true, logLevel: 'silent' } as const;
  const [script, style] = await Promise.all([
    esbuild.build({ ...bundleOptions().webview, ...only }),
    esbuild.build({ ...bundleOptions().webviewCss, ...only }),
  ]);
  return { js: script.outputFiles[0]!.text, css: style.outputFiles[0]!.text, inputs: Object.keys(script.metafile.inputs) };
}

export interface Harness {
  origin: string;
  bundleInputs: string[];
  /** Opens a fresh page on the panel; `savedState` plays what vscode.getState returns. */
  open(options?: { savedState?: unknown; viewport?: { width: number; height: number }; clipboard?: boolean }): Promise<Panel>;
  close(): Promise<void>;
}

export async function startHarness(): Promise<Harness> {
  const bundle = await bundleWebview();
  const server = await servePanel(ROOT, bundle);
  const origin = server.origin;
  const browser: Browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });

  return {
    origin,
    bundleInputs: bundle.inputs,
    async open(options = {}) {
      const page = await browser.newPage({ viewport: options.viewport ?? { width: 420, height: 800 } });
      // VS Code's webviews may write the clipboard; a test that reads it back asks for both.
      if (options.clipboard) await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.addInitScript(fakeVsCodeApi, options.savedState ?? null);
      await page.goto(`${origin}/`);
      const panel = new Panel(page, errors);
      await panel.waitForPosted((m) => m.type === 'ready');
      return panel;
    },
    async close() {
      await browser.close();
      await server.close();
    },
  };
}

/** What the fake VS Code API keeps on the page's window for the tests to read. */
export interface TestGlobals {
  __posted: WebviewToHost[];
  __saved: unknown;
  __csp: string[];
  __inlineRan?: boolean;
  acquireVsCodeApi: () => unknown;
}

/** Runs in the page before its scripts: what the VS Code webview host would provide. */
function fakeVsCodeApi(savedState: unknown): void {
  const w = window as unknown as Window & TestGlobals;
  w.__posted = [];
  w.__saved = savedState;
  w.__csp = [];
  // Where a violation came from is what one needs to fix it.
  document.addEventListener('securitypolicyviolation', (e) =>
    w.__csp.push(`${e.effectiveDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`),
  );
  w.acquireVsCodeApi = () => ({
    postMessage: (m: WebviewToHost) => w.__posted.push(JSON.parse(JSON.stringify(m)) as WebviewToHost),
    getState: () => w.__saved,
    setState: (s: unknown) => (w.__saved = s),
  });
}

export class Panel {
  constructor(
    readonly page: Page,
    /** Uncaught errors in the page: every test expects none. */
    readonly errors: string[],
  ) {}

  /** Delivers host messages, all within the same task (so within one frame) as VS Code may. */
  async send(...messages: HostToWebview[]): Promise<void> {
    // As one JSON string: Playwright serializes a big object graph far slower than a string.
    await this.page.evaluate((json) => {
      for (const data of JSON.parse(json) as unknown[]) window.dispatchEvent(new MessageEvent('message', { data }));
    }, JSON.stringify(messages));
  }

  posted(): Promise<WebviewToHost[]> {
    return this.page.evaluate(() => (window as unknown as TestGlobals).__posted);
  }

  /** What the webview posted of one type, in order. */
  async postedOf(type: WebviewToHost['type']): Promise<WebviewToHost[]> {
    return (await this.posted()).filter((m) => m.type === type);
  }

  /** Waits until the webview has posted a message matching `match` and returns it. */
  async waitForPosted(match: (m: WebviewToHost) => boolean): Promise<WebviewToHost> {
    for (;;) {
      const hit = (await this.posted()).find(match);
      if (hit) return hit;
      // Posting happens in response to events this test triggered; wait for the page's next frame.
      await this.nextFrame();
    }
  }

  cspViolations(): Promise<string[]> {
    return this.page.evaluate(() => (window as unknown as TestGlobals).__csp);
  }

  savedState(): Promise<unknown> {
    return this.page.evaluate(() => (window as unknown as TestGlobals).__saved);
  }

  /** Resolves after the page has rendered the frame following everything sent so far. */
  async settle(): Promise<void> {
    await this.nextFrame();
    await this.nextFrame();
  }

  nextFrame(): Promise<void> {
    return this.page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => r())));
  }
}
