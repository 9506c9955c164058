import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunEvent, Usage } from '../../src/shared/events';
import { startHarness, stateMessage, ThreadScript, type Harness } from './harness';

// Issue 43 items 4 and 5 in the panel: a node's line says how many of its subtree's tokens the
// provider's cache served and what they cost; its tooltip and the answer's stats give the detail.

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(async () => {
  await harness?.close();
});

const tokens = (input: number, output: number, more: Partial<Usage> = {}): Usage => ({
  inputTokens: input,
  outputTokens: output,
  totalTokens: input + output,
  ...more,
});

function finished(s: ThreadScript, runId: string, usage: Usage): RunEvent {
  const event = s.finished(runId, 'ok', `Finished ${runId}.`);
  return event.kind === 'run.finished' ? { ...event, usage } : event;
}

async function thread(researcher: Usage, reviewer: Usage) {
  const panel = await harness.open();
  const s = new ThreadScript('thread-1');
  await panel.send(
    stateMessage('thread-1', [
      s.started('root', { task: 'What does it cost?' }),
      s.started('a', { parent: 'root', agent: 'researcher', task: 'Read' }),
      s.started('b', { parent: 'root', agent: 'reviewer', task: 'Review' }),
      finished(s, 'a', researcher),
      finished(s, 'b', reviewer),
      finished(s, 'root', tokens(1000, 100, { costUsd: 0.0045 })),
    ]),
  );
  const page = panel.page;
  await page.locator('.message.assistant[data-run-id="root"][data-state="ok"]').waitFor();
  const stats = (id: string) => page.locator(`.run-tree [data-run-id="${id}"] > .run-header .run-stats`);
  return { page, stats, panel };
}

describe("a run node's usage line", () => {
  it('shows the cached tokens and the cost, and the tooltip the detail', async () => {
    const { page, stats, panel } = await thread(
      tokens(12_100, 310, { cacheReadTokens: 9_800, costUsd: 0.0421 }),
      tokens(2_000, 50, { cacheReadTokens: 1_500, cacheWriteTokens: 400, costUsd: 0.003 }),
    );
    expect(await stats('a').innerText()).toMatch(/^\d\.\ds · 12k tok · 9\.8k cached · \$0\.042$/);
    expect(await stats('a').getAttribute('title')).toMatch(/^This run: \d+(ms|\.\ds) · 12\.1k in, 9\.8k cached \/ 310 out · \$0\.042$/);
    expect(await stats('b').getAttribute('title')).toContain('2.0k in, 1.5k cached, 400 to cache / 50 out · $0.003');
    // The answer adds up the whole turn: 15.1k in, 11.3k cached, $0.0496.
    expect(await page.locator('.message.assistant .message-stats').innerText()).toMatch(
      /^\d+(ms|\.\ds) · 15\.1k in, 11\.3k cached, 400 to cache \/ 460 out · \$0\.05 · 2 subagent runs$/,
    );
    expect(panel.errors).toEqual([]);
  });

  it('shows tokens only for a run with no price, and a total that leaves it out as the least it cost', async () => {
    const { page, stats } = await thread(tokens(500, 20), tokens(2_000, 50, { costUsd: 0.003 }));
    expect(await stats('a').innerText()).toMatch(/^\d\.\ds · 520 tok$/);
    expect(await page.locator('.message.assistant .message-stats').innerText()).toMatch(
      / · 3\.5k in \/ 170 out · ≥ \$0\.0075 · 2 subagent runs$/,
    );
  });
});
