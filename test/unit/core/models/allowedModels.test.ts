import { describe, expect, it } from 'vitest';
import { EngineRequestError } from '../../../../src/core/engine/engine';
import { modelAllowed } from '../../../../src/core/models/allowedModels';
import type { RunEvent, RunEventOf } from '../../../../src/shared/events';
import type { Profile } from '../../../../src/core/config/profiles/profile';
import { resolveProfileModels } from '../../../../src/core/config/profiles/resolveProfileModels';
import { agent, makeEngine, SCRIPT_PATH } from '../engineHarness';
import { programmedModel } from '../programmedModel';

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
      {
        agents: {
          supervisor: [{ toolCalls: [{ tool: 'delegate_task', input: { task: 't', agents: ['cheap', 'dear'] } }] }, { text: 'ok' }],
          cheap: [{ text: 'fine' }],
        },
      },
      {
        agents: { cheap: agent('cheap'), dear: agent('dear', { model: 'anthropic:claude-opus-5-5' }) },
        settings: { allowedModels: ['scripted:*'] },
      },
    );
    await (
      await h.engine.send({ prompt: 'go' })
    ).done;
    const [results] = toolOutputs(h.events, 'delegate_task') as { agent: string; status: string; error?: string }[][];
    expect(results).toEqual([
      expect.objectContaining({ agent: 'cheap', status: 'ok' }),
      expect.objectContaining({
        agent: 'dear',
        status: 'error',
        error:
          'The "dear" agent would run on "anthropic:claude-opus-5-5", which "subagents.allowedModels" does not allow (allowed: "scripted:*"), so it was not started. Use an agent whose model is allowed, change the agent\'s "model", or add the model to the setting.',
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

describe('model discipline: a fallback is said, and the allowed list is checked on the model actually used', () => {
  /** A Copilot user's profiles as the loader resolves them, where the editor offers Claude Sonnet 4.5 but no GPT-5. */
  function copilotProfiles(): Map<string, Profile> {
    const lists: Profile[] = [
      {
        name: 'reader',
        description: 'reads',
        instructions: 'Read.',
        source: '.github/agents/reader.agent.md',
        requestedModel: ['GPT-5', 'Claude Sonnet 4.5'],
      },
      { name: 'quick', description: 'quick', instructions: 'Quick.', source: 'user settings', requestedModel: 'fast' },
    ];
    const where = {
      editorModels: [
        { vendor: 'copilot', family: 'claude-sonnet-4.5' },
        { vendor: 'copilot', family: 'gpt-4.1' },
      ],
      hasKey: () => false,
      keyHint: () => 'set its API key',
    };
    return resolveProfileModels(new Map(lists.map((p) => [p.name, p])), ALIASES, where).profiles;
  }
  const ALIASES = { fast: ['vscode-lm:copilot/gpt-5-mini', 'vscode-lm:copilot/gpt-4.1'] };
  const started = (events: RunEvent[], agent: string) =>
    events.find((e): e is RunEventOf<'run.started'> => e.kind === 'run.started' && e.agent === agent);
  const delegateBoth = {
    agents: { supervisor: [{ toolCalls: [{ tool: 'delegate_task', input: { task: 't', agents: ['reader', 'quick'] } }] }, { text: 'ok' }] },
  };

  it("a Copilot model list's later entry and an alias's later candidate are named in run.started.model and modelVia", async () => {
    const h = makeEngine(delegateBoth, {
      model: (c) => (c.agent === 'supervisor' ? undefined : programmedModel(() => ({ text: `${c.agent} done` }))),
      settings: { modelAliases: ALIASES },
    });
    for (const [name, p] of copilotProfiles()) h.profiles.set(name, p);
    await (
      await h.engine.send({ prompt: 'go' })
    ).done;
    expect(started(h.events, 'reader')).toMatchObject({
      model: 'vscode-lm:copilot/claude-sonnet-4.5',
      modelVia:
        'fallback: entry 2 of the profile\'s list "GPT-5", "Claude Sonnet 4.5" ("GPT-5" cannot be used here); "Claude Sonnet 4.5", a model name, mapped to its family',
    });
    expect(started(h.events, 'quick')).toMatchObject({
      model: 'vscode-lm:copilot/gpt-4.1',
      modelVia: 'fallback: "fast", an alias in subagents.modelAliases, whose first usable candidate here is vscode-lm:copilot/gpt-4.1',
    });
    // The node shows it: the run tree carries it to the panel.
    expect(h.runs().find((r) => r.agent === 'reader')).toMatchObject({
      model: 'vscode-lm:copilot/claude-sonnet-4.5',
      modelVia: expect.stringMatching(/^fallback: entry 2/),
    });
  });

  it('subagents.allowedModels judges the model a fallback reached: a child that fell back to a model not allowed never starts', async () => {
    const h = makeEngine(delegateBoth, {
      model: (c) => (c.agent === 'supervisor' ? undefined : programmedModel(() => ({ text: `${c.agent} done` }))),
      settings: { modelAliases: ALIASES, allowedModels: ['scripted:*', 'vscode-lm:copilot/gpt-*'] },
    });
    for (const [name, p] of copilotProfiles()) h.profiles.set(name, p);
    await (
      await h.engine.send({ prompt: 'go' })
    ).done;
    const [results] = toolOutputs(h.events, 'delegate_task') as { agent: string; status: string; error?: string }[][];
    expect(results).toEqual([
      expect.objectContaining({
        agent: 'reader',
        status: 'error',
        error: expect.stringContaining(
          'The "reader" agent would run on "vscode-lm:copilot/claude-sonnet-4.5", which "subagents.allowedModels" does not allow (allowed: "scripted:*", "vscode-lm:copilot/gpt-*"), so it was not started.',
        ),
      }),
      expect.objectContaining({ agent: 'quick', status: 'ok' }),
    ]);
    expect(started(h.events, 'reader')).toBeUndefined();
    expect(h.runs().map((r) => r.agent)).toEqual(['supervisor', 'quick']);
  });
});
