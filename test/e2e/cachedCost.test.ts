import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJsonc } from '../../src/core/platform/jsonc/parseJsonc';
import { compactCount, formatTokens, formatUsage, formatUsd } from '../../src/shared/usage';
import { CodeServer, REPO_ROOT } from './codeServer';
import { lastAnswer, prompt, runNode, sendButton } from './panelDom';
import { Workbench } from './workbench';

// Issue 42 item 7 in a real VS Code (code-server): cached tokens and cost on each node. The
// supervisor delegates to a counter whose one model call (scripted, reported through the same
// usage path as a provider's) read most of its input from the prompt cache and wrote some to it;
// subagents.prices prices every scripted spec. The counter's node shows its tokens, how many were
// cached, and the dollars, each kind of token at its own rate; its tooltip gives the detail.
// The expected text is worked out here from the fixture's own numbers.

const FIXTURE = join(REPO_ROOT, 'test', 'fixtures', 'cost-workspace');

interface ScriptedUsage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
}
interface Price {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

function fixtureNumbers(): { usage: ScriptedUsage; price: Price } {
  const script = JSON.parse(readFileSync(join(FIXTURE, '.vscode', 'cost-script.json'), 'utf8')) as {
    agents: { counter: { usage: ScriptedUsage }[] };
  };
  const settings = parseJsonc(readFileSync(join(FIXTURE, '.vscode', 'settings.json'), 'utf8'), { jsonc: true });
  if (!settings.ok) throw new Error(`the fixture's settings.json does not parse: ${settings.error.message}`);
  const prices = (settings.value as { 'subagents.prices': Record<string, Price> })['subagents.prices'];
  return { usage: script.agents.counter[0]!.usage, price: prices['scripted:*']! };
}

describe('cached tokens and cost on each node (issue 42 item 7)', () => {
  let server: CodeServer | undefined;
  let workbench: Workbench | undefined;

  beforeAll(async () => {
    server = await CodeServer.start({ name: 'cached-cost', fixture: FIXTURE });
    workbench = await Workbench.open(server);
  });

  afterAll(async () => {
    await workbench?.close();
    await server?.stop();
  });

  it("shows a run's cached tokens and its cost, priced by subagents.prices, on its node", async () => {
    const wb = workbench!;
    const page = wb.page;
    const { usage, price } = fixtureNumbers();
    // Cache reads and writes are part of the input: only the rest is priced at the input rate.
    const fresh = usage.inputTokens - usage.cacheReadTokens - usage.cacheWriteTokens;
    const costUsd =
      (fresh * price.input +
        usage.cacheReadTokens * price.cacheRead +
        usage.cacheWriteTokens * price.cacheWrite +
        usage.outputTokens * price.output) /
      1_000_000;
    const totalTokens = usage.inputTokens + usage.outputTokens;

    const panel = await wb.step('open the Subagents view', () => wb.showPanel());
    await wb.step('ask; the supervisor delegates to the counter', async () => {
      await prompt(panel).click();
      await page.keyboard.type('Count the notes');
      await sendButton(panel).click();
      await lastAnswer(panel, 'ok').waitFor({ timeout: 60_000 });
    });

    await wb.step("the counter's node shows its tokens, the cached ones and the cost", async () => {
      const stats = runNode(panel, 'counter').locator(':scope > .run-header .run-stats');
      const expected = `${formatTokens(totalTokens)} · ${compactCount(usage.cacheReadTokens)} cached · ${formatUsd(costUsd)}`;
      await expect.poll(() => stats.innerText(), { timeout: 15_000 }).toMatch(new RegExp(` · ${escape(expected)}$`));
      const title = formatUsage({ ...usage, totalTokens, costUsd });
      expect(await stats.getAttribute('title')).toMatch(new RegExp(`^This run: \\S+ · ${escape(title)}$`));
    });
  });
});

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
