import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, stateMessage, ThreadScript, type Harness, type Panel } from './harness';

// Accessible: Tab stops are all visible and named, focusPrompt puts the keyboard in the prompt,
// every control has a label, a live region says when runs end, and high-contrast themes get
// borders (--vscode-contrastBorder).

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(async () => {
  await harness?.close();
});

async function busyThread(panel: Panel): Promise<ThreadScript> {
  const s = new ThreadScript();
  await panel.send(
    stateMessage(
      'thread-1',
      [
        s.started('root', { task: 'Where are totals?' }),
        s.toolStarted('root', 'r', 'read_file', { path: 'src/invoice.ts' }),
        s.toolFinished('root', 'r', 'read_file', { path: 'src/invoice.ts', startLine: 1, endLine: 9, totalLines: 9, content: 'x' }),
        s.started('a', { parent: 'root', agent: 'researcher' }),
        s.delta('root', 'In `src/invoice.ts:4`:\n\n```\ntotal()\n```'),
      ],
      {
        busy: true,
        threads: [{ id: 'thread-1', title: 'Where are totals?', updatedAt: Date.now() }],
        config: {
          model: 'openai:gpt-4.1',
          agents: [{ name: 'researcher', description: 'Finds things.' }],
          problems: [{ message: 'A warning to dismiss.', severity: 'warning' }],
          trusted: true,
        },
      },
    ),
  );
  await panel.page.locator('.message.assistant .code-block').waitFor();
  await panel.page.locator('.run-node[data-run-id="a"] .run-agent').waitFor();
  return s;
}

/** The accessible name, as far as these controls need it: label, labelled-by, text, tooltip. */
function nameOf(el: Element): string {
  const label = el.getAttribute('aria-label');
  if (label?.trim()) return label.trim();
  const by = el.getAttribute('aria-labelledby');
  if (by)
    return by
      .split(' ')
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' ')
      .trim();
  return ((el as HTMLElement).innerText || el.getAttribute('title') || '').trim();
}

describe('the keyboard', () => {
  it('Tab visits only visible, named stops, in reading order, and focusPrompt lands in the prompt', async () => {
    const panel = await harness.open();
    await busyThread(panel);
    const page = panel.page;
    const stops: string[] = [];
    for (let i = 0; i < 30; i++) {
      await page.keyboard.press('Tab');
      const stop = await page.evaluate((nameSource) => {
        const name = new Function(`return (${nameSource})`)() as (el: Element) => string;
        const el = document.activeElement;
        if (!el || el === document.body) return 'BODY';
        const r = el.getBoundingClientRect();
        const visible =
          r.width > 0 && r.height > 0 && (el as HTMLElement).checkVisibility({ opacityProperty: true, visibilityProperty: true });
        return `${visible ? '' : 'INVISIBLE '}${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}: ${name(el) || 'NO NAME'}`;
      }, nameOf.toString());
      if (stop === 'BODY' || stops.includes(stop)) break;
      stops.push(stop);
    }
    expect(stops.filter((s) => s.startsWith('INVISIBLE') || s.endsWith('NO NAME'))).toEqual([]);
    // Header, the problem, the messages' controls, the answer's link and code, the tree (one stop),
    // the working child's Stop (a control inside an item, like an approval's buttons), the box.
    expect(stops.map((s) => s.split(':')[0])).toEqual([
      'button#runs-toggle',
      'button#threads-button',
      'button',
      'button',
      'button',
      'button',
      'button',
      'a',
      'button',
      'button',
      'li',
      'button',
      'textarea#prompt',
      'button#model-picker',
      'button#attach-file',
      'button#attach-selection',
      'vscode-button#stop',
    ]);
    expect(stops[10]).toContain('Read src/invoice.ts');
    expect(stops[11]).toBe('button: Stop researcher and what it started; its supervisor goes on with what it had done');

    await page.locator('#runs-toggle').focus();
    await panel.send({ type: 'focusPrompt' });
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('prompt');
    // The view given the keyboard by the editor ("Focus on Chat View"): the page has focus, the prompt takes it.
    await page.evaluate(() => {
      (document.activeElement as HTMLElement).blur();
      window.dispatchEvent(new FocusEvent('focus'));
    });
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('prompt');
  });

  it('every control has a label', async () => {
    const panel = await harness.open();
    await busyThread(panel);
    await panel.page.locator('#threads-button').click();
    await panel.page.locator('.run-node[data-run-id="a"] > .run-header').click();
    const unnamed = await panel.page.evaluate((nameSource) => {
      const name = new Function(`return (${nameSource})`)() as (el: Element) => string;
      return [
        ...document.querySelectorAll('button, vscode-button, input, textarea, a[href], [role="treeitem"], [role="option"], [tabindex]'),
      ]
        .filter((el) => !name(el))
        .map((el) => el.outerHTML.slice(0, 120));
    }, nameOf.toString());
    expect(unnamed).toEqual([]);
  });
});

describe('a screen reader', () => {
  it('hears when runs end, from a polite live region', async () => {
    const panel = await harness.open();
    const s = await busyThread(panel);
    const region = panel.page.locator('#announcer');
    expect(await region.getAttribute('aria-live')).toBe('polite');
    await panel.send({ type: 'events', threadId: 'thread-1', events: [s.finished('a', 'error', '', 'The model returned 401.')] });
    await expect.poll(() => region.textContent()).toBe('researcher failed: The model returned 401.');
    await panel.send({ type: 'events', threadId: 'thread-1', events: [s.finished('root', 'ok', 'Done.')] });
    await expect.poll(() => region.textContent()).toBe('The answer is ready (1.5s).');
  });
});

describe('high contrast', () => {
  it("draws the theme's contrast border around messages, code, chips, popups and the box", async () => {
    const panel = await harness.open();
    await busyThread(panel);
    const page = panel.page;
    await panel.send({ type: 'attachments', items: [{ id: 'x', kind: 'file', label: 'src/a.ts' }] });
    await page.locator('.attachment-chip').waitFor();
    await page.locator('#model-picker').click();
    // High-contrast themes set this variable; the others leave it unset.
    await page.evaluate(() => document.documentElement.style.setProperty('--vscode-contrastBorder', 'rgb(255, 0, 0)'));
    const borders = await page.evaluate(() =>
      Object.fromEntries(
        [
          '.message.assistant',
          '.message.user',
          '.markdown pre',
          '.attachment-chip',
          '#model-menu',
          '.prompt-input',
          '.badge',
          '.header',
        ].map((sel) => {
          const el = document.querySelector(sel)!;
          const style = getComputedStyle(el);
          return [sel, sel === '.header' ? style.borderBottomColor : style.borderTopColor];
        }),
      ),
    );
    expect(
      Object.values(borders).every((c) => c === 'rgb(255, 0, 0)'),
      JSON.stringify(borders),
    ).toBe(true);
    expect(await panel.cspViolations()).toEqual([]);
  });
});
