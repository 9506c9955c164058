import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type * as Playwright from 'playwright-core';
import type { Browser, Page } from 'playwright-core';
import type { RunEvent } from '../src/shared/events';
import type { HostToWebview } from '../src/shared/protocol';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../test/webview/chromium';
import { servePanel } from '../test/webview/panelServer';
import { bigTree, stateMessage, ThreadScript } from '../test/webview/threadScript';
import { formatMs, summarize } from './stats';

// The webview's budgets (docs/performance.md), in headless Chromium on the production bundle: a thread of
// 1,000 runs and 10k tool events renders under 200 ms; a batch of live events applies under 8 ms.
// "Renders" is the frame that applies the state message, with style and layout forced (reading
// scrollHeight): what the user waits for before the first paint, less the wait for the frame.
// scripts/bench.mjs builds the bundle and its stylesheet into a folder and passes its path in
// SUBAGENTS_BENCH_WEBVIEW (webview.js and webview.css).

const RENDER_SAMPLES = 7;
const BATCHES = 60;

/** The same 1,000 runs and 10k tool events as bigTree, spread over 50 turns of 20 runs each. */
function manyTurns(s: ThreadScript, turns = 50, runsPerTurn = 20, toolsPerRun = 5): RunEvent[] {
  const events: RunEvent[] = [];
  for (let t = 0; t < turns; t++) {
    const root = `t${t}`;
    events.push(s.started(root, { task: `Question ${t}: where are invoice totals computed?` }));
    const ids = [root];
    for (let i = 1; i < runsPerTurn; i++) {
      const id = `${root}-r${i}`;
      events.push(
        s.started(id, {
          parent: i <= 5 ? root : `${root}-r${((i - 6) % 5) + 1}`,
          agent: i % 2 ? 'researcher' : 'reviewer',
          task: `Look at part ${i}`,
        }),
      );
      ids.push(id);
    }
    for (const id of ids) {
      for (let k = 0; k < toolsPerRun; k++) {
        events.push(s.toolStarted(id, `${id}-k${k}`, 'read_file', { path: `src/file${k}.ts` }));
        events.push(s.toolFinished(id, `${id}-k${k}`, 'read_file', `contents of file ${k}`));
      }
    }
    for (const id of ids.slice().reverse()) events.push(s.finished(id, 'ok', `Finished **${id}** in \`src/file1.ts\`.`));
  }
  return events;
}

/** The big tree while it works: the root and its 30 children still running. */
function liveTree(s: ThreadScript): RunEvent[] {
  const running = new Set(['r0', ...Array.from({ length: 30 }, (_, i) => `r${i + 1}`)]);
  return bigTree(s, 1000, 5).filter((e) => !(e.kind === 'run.finished' && running.has(e.runId)));
}

/** One frame's worth of live work: each of the 30 running children streams and calls a tool. */
function liveBatch(s: ThreadScript, n: number): RunEvent[] {
  const events: RunEvent[] = [];
  for (let c = 1; c <= 30; c++) {
    const id = `r${c}`;
    events.push(s.delta(id, `Reading part ${n}. `), s.delta(id, 'Found the total. '), s.delta(id, 'Checking rounding. '));
    events.push(s.toolStarted(id, `${id}-live${n}`, 'search_text', { pattern: 'total' }));
    events.push(s.toolFinished(id, `${id}-live${n}`, 'search_text', { matches: [`src/invoice.ts:${n}: total()`] }));
  }
  return events;
}

/** The page's globals this bench uses (the node bench compiles without the DOM's types). */
interface PageGlobals {
  dispatchEvent(event: unknown): void;
  MessageEvent: new (type: string, init: { data: unknown }) => unknown;
  requestAnimationFrame(callback: () => void): void;
  performance: { now(): number };
  document: { querySelector(selector: string): { scrollHeight: number } | null };
}

/**
 * Dispatches host messages (already parsed: VS Code hands the webview a structured clone) and
 * resolves with the time the frame that applies them took: the panel asks for its frame while it
 * receives, between this bench's two callbacks, and the three run in order in the same frame. So
 * the wait for the frame is not counted, and the layout the panel's writes need is.
 */
function timeFrame(page: Page, messages: HostToWebview[]): Promise<number> {
  return page.evaluate((json) => {
    const g = globalThis as unknown as PageGlobals;
    const data = JSON.parse(json) as unknown[];
    return new Promise<number>((resolve) => {
      let start = 0;
      g.requestAnimationFrame(() => (start = g.performance.now()));
      for (const m of data) g.dispatchEvent(new g.MessageEvent('message', { data: m }));
      g.requestAnimationFrame(() => {
        void g.document.querySelector('.scroller')?.scrollHeight;
        resolve(g.performance.now() - start);
      });
    });
  }, JSON.stringify(messages));
}

/** Two frames: whatever the last message scheduled (markdown, lazy nodes) has had its turn. */
function settle(page: Page): Promise<void> {
  return page.evaluate(() => {
    const g = globalThis as unknown as PageGlobals;
    return new Promise<void>((resolve) => g.requestAnimationFrame(() => g.requestAnimationFrame(() => resolve())));
  });
}

async function openPanel(browser: Browser, origin: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 400, height: 900 } });
  await page.addInitScript(() => {
    (globalThis as unknown as { acquireVsCodeApi: () => unknown }).acquireVsCodeApi = () => ({
      postMessage() {},
      getState: () => null,
      setState() {},
    });
  });
  await page.goto(`${origin}/`);
  await page.locator('#prompt').waitFor();
  return page;
}

export async function webviewRenderBench(): Promise<string[]> {
  const bundle = process.env.SUBAGENTS_BENCH_WEBVIEW;
  if (!bundle) return ['Webview: not measured (run it through `npm run bench`, which builds the bundle).'];
  const root = process.cwd();
  // From the repository, not from the bench's temp bundle: playwright-core stays a package of its own.
  const { chromium } = createRequire(join(root, 'package.json'))('playwright-core') as typeof Playwright;
  const server = await servePanel(root, {
    js: readFileSync(join(bundle, 'webview.js'), 'utf8'),
    css: readFileSync(join(bundle, 'webview.css'), 'utf8'),
  });
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
  try {
    const render = async (events: (s: ThreadScript) => RunEvent[]): Promise<string> => {
      const samples: number[] = [];
      for (let i = 0; i < RENDER_SAMPLES + 1; i++) {
        const page = await openPanel(browser, server.origin);
        const ms = await timeFrame(page, [stateMessage('thread-bench', events(new ThreadScript('thread-bench')))]);
        // The first page warms Chromium's caches (the bundle's compile, fonts): not counted.
        if (i > 0) samples.push(ms);
        await page.close();
      }
      return formatMs(summarize(samples));
    };
    const oneTurn = await render((s) => bigTree(s, 1000, 5));
    const fifty = await render((s) => manyTurns(s));

    const page = await openPanel(browser, server.origin);
    const s = new ThreadScript('thread-bench');
    await timeFrame(page, [stateMessage('thread-bench', liveTree(s), { busy: true })]);
    await settle(page);
    const batchMs: number[] = [];
    for (let n = 0; n < BATCHES; n++) {
      batchMs.push(await timeFrame(page, [{ type: 'events', threadId: 'thread-bench', events: liveBatch(s, n) }]));
      await settle(page);
    }
    await page.close();
    return [
      `Webview (headless Chromium, production bundle, ${RENDER_SAMPLES} renders after a warm-up, ${BATCHES} batches):`,
      `  render 1,000 runs / 10k tool events, 1 turn: ${oneTurn} (budget under 200 ms)`,
      `  render 1,000 runs / 10k tool events, 50 turns of 20 runs: ${fifty} (budget under 200 ms)`,
      `  apply a batch of 150 live events (30 running children, a 1,000-run tree): ${formatMs(summarize(batchMs))} (budget under 8 ms)`,
    ];
  } finally {
    await browser.close();
    await server.close();
  }
}
