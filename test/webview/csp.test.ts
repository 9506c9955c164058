import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNonce } from '../../src/host/panel/nonce';
import { panelCsp, renderPanelHtml } from '../../src/host/panel/panelHtml';
import { startHarness, stateMessage, ThreadScript, type Harness, type TestGlobals } from './harness';

// The panel under its strict Content Security Policy: everything it does (toolkit controls,
// codicons, markdown, approvals, a tool output opened) runs without a single violation, while an
// inline script is refused. And the bundle carries no zod.

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(async () => {
  await harness?.close();
});

describe('the panel HTML', () => {
  it('has the strict CSP, a nonce on its one script and no inline script', () => {
    const nonce = createNonce();
    const html = renderPanelHtml({
      cspSource: 'https://x.vscode-cdn.net',
      nonce,
      scriptUri: 'https://x/webview.js?a=1&b="2"',
      styleUri: 'https://x/webview.css',
      codiconUri: 'https://x/codicon.css',
    });
    expect(panelCsp('https://x.vscode-cdn.net', nonce)).toBe(
      `default-src 'none'; img-src https://x.vscode-cdn.net data:; style-src https://x.vscode-cdn.net 'nonce-${nonce}'; font-src https://x.vscode-cdn.net; script-src 'nonce-${nonce}';`,
    );
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="${panelCsp('https://x.vscode-cdn.net', nonce)}">`);
    const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts).toHaveLength(1);
    expect(scripts[0]![1]).toContain(`nonce="${nonce}"`);
    expect(scripts[0]![1]).toContain('src="https://x/webview.js?a=1&amp;b=&quot;2&quot;"');
    expect(scripts[0]![2]).toBe('');
    expect(html).not.toMatch(/\sstyle=|\son[a-z]+=/i);
  });

  it('gets a fresh 32-byte base64url nonce each time', () => {
    const a = createNonce();
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(a, 'base64url')).toHaveLength(32);
    expect(createNonce()).not.toBe(a);
  });
});

describe('the webview bundle', () => {
  it('does not contain zod', () => {
    expect(harness.bundleInputs.filter((input) => input.includes('node_modules/zod'))).toEqual([]);
    expect(harness.bundleInputs.some((input) => input.includes('src/shared/runTree.ts'))).toBe(true);
  });
});

describe('in Chromium', () => {
  it('renders and runs everything without a CSP violation', async () => {
    const panel = await harness.open();
    const s = new ThreadScript();
    await panel.send(
      stateMessage(
        'thread-1',
        [
          s.started('root', { task: 'Fix the build' }),
          s.delta('root', 'Working on it: `npm run build` **fails**.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n[docs](https://example.com)'),
          s.started('c', { parent: 'root', agent: 'researcher' }),
          s.toolStarted('c', 'c-1', 'read_file', { path: 'package.json' }),
          s.toolFinished('c', 'c-1', 'read_file', { name: 'x', scripts: { build: 'esbuild' } }),
          s.toolStarted('c', 'c-2', 'run_command', { command: 'npm run build' }),
          s.approvalRequested('c', 'ap', 'c-2', 'run_command', { command: 'npm run build' }),
        ],
        {
          busy: true,
          threads: [{ id: 'thread-1', title: 'Fix the build', updatedAt: 1 }],
          config: { model: 'scripted:x', agents: [], problems: [{ message: 'A problem.', severity: 'error' }], trusted: false },
        },
      ),
    );
    const page = panel.page;
    await page.locator('.tool-call[data-approval="pending"] .approve').waitFor();
    await page.locator('[data-tool-call-id="c-1"] .tool-row .state-icon').click();
    await page.locator('[data-tool-call-id="c-1"] .tool-detail', { hasText: '"build": "esbuild"' }).waitFor();
    await page.locator('.tool-call[data-approval="pending"] .approve').click();
    await page.locator('#threads-button').click();
    await page.locator('#thread-list .thread-row').first().waitFor();
    await panel.send(
      { type: 'notice', level: 'info', message: 'Saved.' },
      { type: 'events', threadId: 'thread-1', events: [s.finished('c', 'ok', 'done'), s.finished('root', 'error', '', 'boom')] },
    );
    await page.locator('.message.assistant[data-state="error"]').waitFor();
    // The toolkit's controls are up and styled (their shadow styles came through).
    expect(await page.locator('#send').evaluate((el) => el.shadowRoot !== null && getComputedStyle(el).display !== 'inline')).toBe(true);
    // The codicon font loaded from the webview's own origin.
    await expect
      .poll(() => page.evaluate(() => [...document.fonts].some((f) => f.family.replace(/"/g, '') === 'codicon' && f.status === 'loaded')))
      .toBe(true);
    await panel.settle();
    expect(await panel.cspViolations()).toEqual([]);
    expect(panel.errors).toEqual([]);
  });

  it('refuses an inline script', async () => {
    const panel = await harness.open();
    await panel.page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'window.__inlineRan = true';
      document.body.append(script);
    });
    await expect.poll(() => panel.cspViolations()).toEqual([expect.stringMatching(/^script-src-elem inline/)]);
    expect(await panel.page.evaluate(() => (window as unknown as TestGlobals).__inlineRan)).toBeUndefined();
  });
});
