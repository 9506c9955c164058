import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, stateMessage, TRUSTED_CONFIG, type Harness } from './harness';

// Issue 45 item 5: prompt files are slash commands in the prompt box; the host expands them when sent.

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(async () => {
  await harness?.close();
});

describe('slash commands in the prompt box', () => {
  it('completes /name at the start from the prompt files, and sends the line as typed', async () => {
    const panel = await harness.open();
    const commands = [
      { name: 'review', description: 'Review a file', argumentHint: '[file]' },
      { name: 'release-notes', description: 'Write release notes' },
      { name: 'explain', description: 'Explain code' },
    ];
    await panel.send(stateMessage(null, [], { config: { ...TRUSTED_CONFIG, commands } }));
    const prompt = panel.page.locator('#prompt');
    await prompt.pressSequentially('/re');
    const list = panel.page.locator('#prompt-completions');
    await expect.poll(() => list.locator('.completion-label').allInnerTexts()).toEqual(['/review', '/release-notes']);
    expect(await list.locator('.completion-detail').first().innerText()).toBe('[file]: Review a file');
    await prompt.press('Tab');
    expect(await prompt.inputValue()).toBe('/review ');
    await prompt.pressSequentially('src/x.ts');
    await prompt.press('Enter');
    expect(await panel.waitForPosted((m) => m.type === 'send')).toMatchObject({ type: 'send', text: '/review src/x.ts' });
    // Not at the start: no commands offered.
    await prompt.fill('');
    await prompt.pressSequentially('see /re');
    expect(await list.isHidden()).toBe(true);
  });
});
