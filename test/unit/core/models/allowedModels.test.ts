import { describe, expect, it } from 'vitest';
import { EngineRequestError } from '../../../../src/core/engine';
import { modelAllowed } from '../../../../src/core/models/allowedModels';
import type { RunEvent, RunEventOf } from '../../../../src/shared/events';
import { agent, makeEngine, SCRIPT_PATH } from '../engineHarness';

const toolOutputs = (events: RunEvent[], tool: string) =>
  events.filter((e): e is RunEventOf<'tool.finished'> => e.kind === 'tool.finished' && e.tool === tool).map((e) => e.output);

describe('subagents.allowedModels', () => {
  it('matches specs and globs, where * spans slashes (specs hold URLs) and case does not matter', () => {
    expect(modelAllowed('openai:gpt-5', [])).toBe(true);
    expect(modelAllowed('vscode-lm:copilot/gpt-4.1', ['vscode-lm:copilot/*'])).toBe(true);
    expect(modelAllowed('vscode-lm:Copilot/GPT-4.1', ['vscode-lm:copilot/gpt-4.1'])).toBe(true);
    expect(modelAllowed('openai-compatible:http://localhost:11434/v1#llama3.1', ['openai-compatible:http://localhost*'])).toBe(true);
    expect(modelAllowed('anthropic:claude-opus-5-5', ['anthropic:claude-haiku*', 'vscode-lm:*'])).toBe(false);
    // A dot or a plus in a pattern is itself, not a regex.
    expect(modelAllowed('openai:gpt-4o1', ['openai:gpt-4.1'])).toBe(false);
  });

  it('refuses a child on any other model before it starts, with an error its supervisor can act on', async () => {
    const h = makeEngine(
      { agents: { supervisor: [{ toolCalls: [{ tool: 'delegate_task', input: { task: 't', agents: ['cheap', 'dear'] } }] }, { text: 'ok' }], cheap: [{ text: 'fine' }] } },
      { agents: { cheap: agent('cheap'), dear: agent('dear', { model: 'anthropic:claude-opus-5-5' }) }, settings: { allowedModels: ['scripted:*'] } },
    );
    await (await h.engine.send({ prompt: 'go' })).done;
    const [results] = toolOutputs(h.events, 'delegate_task') as { agent: string; status: string; error?: string }[][];
    expect(results).toEqual([
      expect.objectContaining({ agent: 'cheap', status: 'ok' }),
      expect.objectContaining({
        agent: 'dear',
        status: 'error',
        error: 'The "dear" agent would run on "anthropic:claude-opus-5-5", which "subagents.allowedModels" does not allow (allowed: "scripted:*"), so it was not started. Use an agent whose model is allowed, change the agent\'s "model", or add the model to the setting.',
      }),
    ]);
    expect(h.runs().map((r) => r.agent)).toEqual(['supervisor', 'cheap']);
  });

  it('refuses a request whose top model is not allowed', async () => {
    const h = makeEngine({ agents: { supervisor: [{ text: 'hi' }] } }, { settings: { allowedModels: ['vscode-lm:copilot/*'] } });
    await expect(h.engine.send({ prompt: 'go' })).rejects.toThrow(EngineRequestError);
    await expect(h.engine.send({ prompt: 'go' })).rejects.toThrow(`The "supervisor" agent would run on "scripted:${SCRIPT_PATH}"`);
    expect(h.events).toEqual([]);
  });
});
