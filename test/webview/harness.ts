import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { bundleOptions } from '../../scripts/bundles.mjs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { createNonce } from '../../src/host/nonce';
import { renderPanelHtml } from '../../src/host/panelHtml';
import type { RunEvent, RunStatus } from '../../src/shared/events';
import type { HostToWebview, PanelConfig, QueuedPromptView, ThreadSummary, WebviewToHost } from '../../src/shared/protocol';

/**
 * The webview tests' fixture: the real panel HTML (renderPanelHtml, real nonce and CSP) and a fresh
 * in-memory build of webview/main.ts, served over 127.0.0.1 to Debian's headless Chromium, with a
 * fake acquireVsCodeApi that records what the webview posts. Host messages are dispatched as the
 * MessageEvents VS Code delivers.
 */

const ROOT = join(import.meta.dirname, '..', '..');
const CODICONS = join(ROOT, 'node_modules', '@vscode', 'codicons', 'dist');

export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'];

/** The webview bundle, built with esbuild.mjs's own options; the metafile shows what it holds. */
export async function bundleWebview(): Promise<{ js: string; inputs: string[] }> {
  const result = await esbuild.build({ ...bundleOptions().webview, write: false, outdir: undefined, sourcemap: false, metafile: true, logLevel: 'silent' });
  return { js: result.outputFiles[0]!.text, inputs: Object.keys(result.metafile.inputs) };
}

export interface Harness {
  origin: string;
  bundleInputs: string[];
  /** Opens a fresh page on the panel; `savedState` plays what vscode.getState returns. */
  open(options?: { savedState?: unknown; viewport?: { width: number; height: number } }): Promise<Panel>;
  close(): Promise<void>;
}

export async function startHarness(): Promise<Harness> {
  const bundle = await bundleWebview();
  const files: Record<string, { body: Buffer | string; type: string }> = {
    '/webview.js': { body: bundle.js, type: 'text/javascript' },
    '/webview.css': { body: readFileSync(join(ROOT, 'webview', 'style.css')), type: 'text/css' },
    '/codicon.css': { body: readFileSync(join(CODICONS, 'codicon.css')), type: 'text/css' },
    '/codicon.ttf': { body: readFileSync(join(CODICONS, 'codicon.ttf')), type: 'font/ttf' },
  };
  let origin = '';
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    if (path === '/') {
      const html = renderPanelHtml({
        cspSource: origin,
        nonce: createNonce(),
        scriptUri: `${origin}/webview.js`,
        styleUri: `${origin}/webview.css`,
        codiconUri: `${origin}/codicon.css`,
      });
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
      return;
    }
    const file = files[path];
    if (file) res.writeHead(200, { 'content-type': file.type }).end(file.body);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const browser: Browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });

  return {
    origin,
    bundleInputs: bundle.inputs,
    async open(options = {}) {
      const page = await browser.newPage({ viewport: options.viewport ?? { width: 420, height: 800 } });
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
      await new Promise<void>((resolve) => server.close(() => resolve()));
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
  document.addEventListener('securitypolicyviolation', (e) => w.__csp.push(`${e.effectiveDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));
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

export const TRUSTED_CONFIG: PanelConfig = {
  model: 'scripted:test.json',
  agents: [
    { name: 'researcher', description: 'Finds things out.' },
    { name: 'reviewer', description: 'Checks the work.' },
  ],
  problems: [],
  trusted: true,
};

export function stateMessage(threadId: string | null, events: RunEvent[], extra: { threads?: ThreadSummary[]; config?: PanelConfig; busy?: boolean; queued?: QueuedPromptView[] } = {}): HostToWebview {
  return { type: 'state', threadId, events, threads: extra.threads ?? [], config: extra.config ?? TRUSTED_CONFIG, busy: extra.busy ?? false, queued: extra.queued ?? [] };
}

/** Writes the RunEvents of one thread with increasing seq, remembering each run's place in the tree. */
export class ThreadScript {
  private seq = 0;
  private ts = Date.now() - 60_000;
  private readonly runs = new Map<string, { agentPath: string[]; depth: number }>();

  constructor(readonly threadId = 'thread-1') {}

  private base(runId: string) {
    this.ts += 10;
    return { v: 1 as const, threadId: this.threadId, runId, seq: this.seq++, ts: this.ts };
  }

  started(runId: string, o: { parent?: string; agent?: string; task?: string } = {}): RunEvent {
    const parent = o.parent ? this.runs.get(o.parent) : undefined;
    const agent = o.agent ?? (parent ? 'researcher' : 'supervisor');
    const place = { agentPath: [...(parent?.agentPath ?? []), agent], depth: parent ? parent.depth + 1 : 0 };
    this.runs.set(runId, place);
    return { ...this.base(runId), kind: 'run.started', parentRunId: o.parent ?? null, agent, ...place, task: o.task ?? `task of ${runId}`, model: 'scripted:test' };
  }

  delta(runId: string, text: string): RunEvent {
    return { ...this.base(runId), kind: 'text.delta', text };
  }

  toolStarted(runId: string, toolCallId: string, tool: string, input: unknown): RunEvent {
    return { ...this.base(runId), kind: 'tool.started', toolCallId, tool, input };
  }

  toolFinished(runId: string, toolCallId: string, tool: string, output: unknown, isError = false): RunEvent {
    return { ...this.base(runId), kind: 'tool.finished', toolCallId, tool, output, isError };
  }

  approvalRequested(runId: string, approvalId: string, toolCallId: string, tool: string, input: unknown, reason?: string): RunEvent {
    return { ...this.base(runId), kind: 'approval.requested', approvalId, toolCallId, tool, input, ...(reason ? { reason } : {}) };
  }

  approvalResolved(runId: string, approvalId: string, toolCallId: string, tool: string, decision: 'approved' | 'denied'): RunEvent {
    return { ...this.base(runId), kind: 'approval.resolved', approvalId, toolCallId, tool, input: {}, decision };
  }

  finished(runId: string, status: RunStatus = 'ok', output = '', error?: string): RunEvent {
    return {
      ...this.base(runId),
      kind: 'run.finished',
      status,
      output,
      ...(error ? { error } : {}),
      usage: { inputTokens: 100, outputTokens: 20, totalTokens: 120 },
      durationMs: 1500,
    };
  }
}

/**
 * A finished tree of `runs` runs (a root, 30 children, the rest grandchildren spread over them),
 * each with `toolsPerRun` tool calls (a started and a finished event each) and a short markdown
 * output. The defaults are the budget's tree: 1,000 runs and 10,000 tool events.
 */
export function bigTree(script: ThreadScript, runs = 1000, toolsPerRun = 5): RunEvent[] {
  const events: RunEvent[] = [script.started('r0', { task: 'Audit the whole repository' })];
  const ids = ['r0'];
  for (let i = 1; i < runs; i++) {
    const parent = i <= 30 ? 'r0' : `r${((i - 31) % 30) + 1}`;
    events.push(script.started(`r${i}`, { parent, agent: i % 2 ? 'researcher' : 'reviewer', task: `Look at part ${i}` }));
    ids.push(`r${i}`);
  }
  for (const id of ids) {
    for (let t = 0; t < toolsPerRun; t++) {
      events.push(script.toolStarted(id, `${id}-t${t}`, 'read_file', { path: `src/file${t}.ts` }));
      events.push(script.toolFinished(id, `${id}-t${t}`, 'read_file', `contents of file ${t}`));
    }
  }
  for (const id of ids.slice().reverse()) events.push(script.finished(id, 'ok', `Finished **${id}**.`));
  return events;
}
