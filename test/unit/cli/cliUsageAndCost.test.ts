import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startAnthropicServer, type AnthropicServer } from '../fakes/anthropicServer';
import { startChatServer, textReply, type ChatServer } from '../fakes/openAiServer';
import { buildCliInto, cleanup, put, startCli, workspace } from './mcpHarness';

// Issue 43 items 4 and 5 in the real CLI: a supervisor on "Anthropic" (ANTHROPIC_BASE_URL, a local
// Messages API server) delegates to a helper on a local OpenAI-compatible server; both report
// cached tokens. The summary line shows them, and the cost once subagents.prices prices them.
vi.setConfig({ testTimeout: 90_000 });

let build: { dir: string; cli: string };
let ws: string;
let anthropic: AnthropicServer;
let openai: ChatServer;

beforeAll(async () => {
  build = await buildCliInto();
}, 90_000);
afterAll(() => cleanup(build.dir));
beforeEach(async () => {
  ws = await workspace();
  anthropic = await startAnthropicServer([
    {
      toolUse: { id: 'toolu_1', name: 'delegate_task', input: { task: 'count', agents: ['helper'] } },
      usage: { input: 50, cacheWrite: 2000, output: 20 },
    },
    { text: 'There are 42.', usage: { input: 30, cacheRead: 2000, cacheWrite: 100, output: 10 } },
  ]);
  const usage = { prompt_tokens: 1200, completion_tokens: 5, prompt_tokens_details: { cached_tokens: 1024 } };
  openai = await startChatServer([textReply(['42'], usage)]);
  return async () => {
    await anthropic.close();
    await openai.close();
    await cleanup(ws);
  };
});

async function run(settings: Record<string, unknown> = {}) {
  await put(ws, '.vscode/settings.json', {
    'subagents.agents': { helper: { description: 'Counts things', model: `openai-compatible:${openai.baseURL}#small` } },
    ...settings,
  });
  const result = await startCli(build.cli, ws, ['run', '--model', 'anthropic:claude-sonnet-4-5', 'How many?'], {
    ANTHROPIC_API_KEY: 'sk-ant-test',
    ANTHROPIC_BASE_URL: anthropic.baseURL,
  });
  expect(result.code, result.stderr).toBe(0);
  expect(result.stdout).toContain('There are 42.');
  const lines = result.stderr.split('\n');
  return { summary: lines.find((l) => l.startsWith('ok (')), helper: lines.find((l) => l.startsWith('[helper] ok')), result };
}

const TIME = String.raw`\d+(?:ms|\.\ds)`;

describe('the CLI summary', () => {
  it('shows the cached tokens of the top run and, with its subagents, of the whole request', async () => {
    const { summary, helper } = await run();
    // 50 + 2000 written, then 30 + 2000 read + 100 written: 4,180 in; the helper's 1,200 of which 1,024 cached.
    expect(summary).toMatch(
      new RegExp(
        `^ok \\(${TIME} · 4\\.2k in, 2\\.0k cached, 2\\.1k to cache / 30 out; with its subagents: 5\\.4k in, 3\\.0k cached, 2\\.1k to cache / 35 out\\)$`,
      ),
    );
    expect(helper).toMatch(new RegExp(`^\\[helper\\] ok \\(${TIME} · 1\\.2k in, 1\\.0k cached / 5 out\\)$`));
    expect(summary).not.toContain('$');
    // The calls were marked for Anthropic's cache (subagents.promptCaching is on by default).
    expect(anthropic.requests.every((r) => JSON.stringify(r).includes('"cache_control"'))).toBe(true);
  });

  it('shows what each run and the whole request cost when subagents.prices prices every model', async () => {
    const { summary, helper } = await run({
      'subagents.prices': {
        'anthropic:claude-sonnet-*': { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
        'openai-compatible:*#small': { input: 1, output: 2, cacheRead: 0.1 },
      },
      'subagents.promptCaching': false,
    });
    // $0.009165 for the supervisor, $0.0002884 for the helper: $0.0094534 in all.
    expect(summary).toMatch(
      new RegExp(
        `^ok \\(${TIME} · 4\\.2k in, 2\\.0k cached, 2\\.1k to cache / 30 out · \\$0\\.0092; with its subagents: .* / 35 out · \\$0\\.0095\\)$`,
      ),
    );
    expect(helper).toMatch(/ · 1\.2k in, 1\.0k cached \/ 5 out · \$0\.00029\)$/);
    expect(anthropic.requests.some((r) => JSON.stringify(r).includes('"cache_control"'))).toBe(false);
  });

  it('shows a total that leaves an unpriced model out as the least it cost, and that model in tokens only', async () => {
    const { summary, helper } = await run({
      'subagents.prices': { 'anthropic:*': { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 } },
    });
    expect(summary).toMatch(/ · \$0\.0092; with its subagents: .* \/ 35 out · ≥ \$0\.0092\)$/);
    expect(helper).toMatch(/ \/ 5 out\)$/);
  });
});
