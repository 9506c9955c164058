import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PanelConfig } from '../../src/shared/protocol';
import { startHarness, stateMessage, TRUSTED_CONFIG, type Harness } from './harness';

// Issue 42 item 5: an agent file that failed to load is named where it is mentioned (`@broken`),
// and problem banners are one line with "Details" that opens the rest.

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(async () => {
  await harness?.close();
});

const WHY = 'has front matter that no reader can read: the "description" value on line 3 opens a quote (\') that is never closed';
const config: PanelConfig = {
  ...TRUSTED_CONFIG,
  brokenAgents: [{ name: 'broken', file: '.github/agents/broken.agent.md, line 3', why: WHY }],
  problems: [
    {
      message: `.github/agents/broken.agent.md, line 3 (agent "broken"): ${WHY}. The file is left out until it is fixed. The other agents still work.`,
      severity: 'error',
      location: { path: '/ws/.github/agents/broken.agent.md', line: 3 },
    },
  ],
};

describe('an agent whose file failed to load', () => {
  it('@ completion lists it as broken, with its file and why; sending to it says so and sends nothing', async () => {
    const panel = await harness.open();
    await panel.send(stateMessage(null, [], { config }));
    const prompt = panel.page.locator('#prompt');
    await prompt.pressSequentially('@');
    const list = panel.page.locator('#prompt-completions');
    await expect.poll(() => list.locator('.completion-label').allInnerTexts()).toEqual(['@researcher', '@reviewer', '@broken']);
    const broken = list.locator('.completion.broken');
    expect(await broken.locator('.completion-detail').innerText()).toBe(`did not load: .github/agents/broken.agent.md, line 3: ${WHY}`);
    await prompt.pressSequentially('bro');
    await expect.poll(() => list.locator('.completion-label').allInnerTexts()).toEqual(['@broken']);
    await prompt.press('Tab');
    await prompt.pressSequentially('fix the invoice');
    await prompt.press('Enter');
    const hint = panel.page.locator('#prompt-hint');
    await hint.waitFor();
    expect(await hint.innerText()).toBe(
      `@broken did not load: .github/agents/broken.agent.md, line 3: ${WHY}. Fix the file, then try again.`,
    );
    expect(await prompt.inputValue()).toBe('@broken fix the invoice');
    expect((await panel.posted()).filter((m) => m.type === 'send')).toEqual([]);
    expect(panel.errors).toEqual([]);
  });

  it('its banner is one line; Details opens the rest, and closes it again', async () => {
    const panel = await harness.open();
    await panel.send(stateMessage(null, [], { config }));
    const banner = panel.page.locator('#problems .problem-error');
    await banner.waitFor();
    const text = banner.locator('.problem-text');
    expect(await text.innerText()).toBe(`.github/agents/broken.agent.md, line 3 (agent "broken"): ${WHY}.`);
    // One line on screen, however narrow the panel.
    const lineHeight = await text.evaluate((el) => parseFloat(getComputedStyle(el).lineHeight));
    expect((await text.boundingBox())!.height).toBeLessThan(lineHeight * 1.5);
    const details = banner.locator('.problem-details');
    expect(await details.isHidden()).toBe(true);
    const more = banner.getByRole('button', { name: 'Details' });
    expect(await more.getAttribute('aria-expanded')).toBe('false');
    await more.click();
    await details.waitFor();
    expect(await details.innerText()).toBe('The file is left out until it is fixed. The other agents still work.');
    const less = banner.getByRole('button', { name: 'Less' });
    expect(await less.getAttribute('aria-expanded')).toBe('true');
    await less.click();
    await details.waitFor({ state: 'hidden' });
    // The link to the file stays on the line.
    expect(await banner.locator('.problem-link').innerText()).toBe('Open agents/broken.agent.md:3');
    expect(await panel.cspViolations()).toEqual([]);
  });
});
