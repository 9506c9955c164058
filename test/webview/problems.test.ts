import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PanelConfig } from '../../src/shared/protocol';
import { startHarness, stateMessage, TRUSTED_CONFIG, type Harness } from './harness';

// Problem banners: a link to where each is fixed (a typed openLocation message), and a dismissal
// that lasts (through the webview's saved state) until the problem changes.

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(async () => {
  await harness?.close();
});

const reviewer = {
  message:
    '"reviewer" has no description: add "description" to its entry in "subagents.agents" in .vscode/settings.json. "reviewer" is left out until it is fixed. The other agents still work.',
  severity: 'error' as const,
  location: { path: '/ws/.vscode/settings.json', line: 6, setting: 'subagents.agents' },
};
const depth = {
  message: 'The setting "subagents.maxDepth" in user settings is invalid (too big); it is ignored.',
  severity: 'error' as const,
  location: { setting: 'subagents.maxDepth' },
};
const withProblems = (problems: PanelConfig['problems']): PanelConfig => ({ ...TRUSTED_CONFIG, problems });

describe('problem banners', () => {
  it('link to the place, by mouse and keyboard, and say nothing internal', async () => {
    const panel = await harness.open();
    await panel.send(stateMessage(null, [], { config: withProblems([reviewer, depth]) }));
    const banner = panel.page.locator('#problems .problem', { hasText: '"reviewer" has no description' });
    await banner.waitFor();
    expect(await banner.locator('.problem-link').innerText()).toBe('Open .vscode/settings.json:6');
    await banner.locator('.problem-link').click();
    expect(await panel.waitForPosted((m) => m.type === 'openLocation')).toEqual({ type: 'openLocation', location: reviewer.location });
    const user = panel.page.locator('#problems .problem', { hasText: 'maxDepth' }).locator('.problem-link');
    expect(await user.innerText()).toBe('Open user settings');
    await user.focus();
    await panel.page.keyboard.press('Enter');
    await expect.poll(async () => (await panel.posted()).filter((m) => m.type === 'openLocation')).toHaveLength(2);
    expect(await panel.cspViolations()).toEqual([]);
  });

  it('stay dismissed across a re-created webview until the problem changes', async () => {
    const panel = await harness.open();
    await panel.send(stateMessage(null, [], { config: withProblems([reviewer, depth]) }));
    const banners = panel.page.locator('#problems .problems-config .problem');
    await expect.poll(() => banners.count()).toBe(2);
    await banners.filter({ hasText: 'reviewer' }).getByRole('button', { name: 'Dismiss this problem' }).click();
    await expect.poll(() => banners.allInnerTexts()).toEqual([expect.stringContaining('maxDepth')]);
    // The same configuration again (any settings change sends it): still dismissed.
    await panel.send({ type: 'config', config: withProblems([reviewer, depth]) });
    await panel.settle();
    expect(await banners.count()).toBe(1);

    // The webview is hidden and re-created with its saved state: still dismissed.
    const again = await harness.open({ savedState: await panel.savedState() });
    await again.send(stateMessage(null, [], { config: withProblems([reviewer, depth]) }));
    const shown = again.page.locator('#problems .problems-config .problem');
    await expect.poll(() => shown.count()).toBe(1);
    // Changed (now at another line): it shows again.
    await again.send({ type: 'config', config: withProblems([{ ...reviewer, location: { ...reviewer.location, line: 7 } }, depth]) });
    await expect.poll(() => shown.count()).toBe(2);
    // Dismissing the last one hides the whole section.
    while ((await shown.count()) > 0) await shown.first().getByRole('button', { name: 'Dismiss this problem' }).click();
    await again.page.locator('#problems').waitFor({ state: 'hidden' });
    expect(again.errors).toEqual([]);
  });
});
