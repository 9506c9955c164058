import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { supervisorPrompt } from '../../../../src/core/run/delegation/supervisorPrompt';
import type { Profile } from '../../../../src/core/config/profiles/profile';
import { agent, makeEngine } from '../engineHarness';
import { programmedModel } from '../programmedModel';

const p = (name: string, description: string): Profile => ({ name, description, instructions: '', source: 'test' });

/** The system prompt and tool names of the supervisor's first model call. */
async function firstCall(options: Parameters<typeof makeEngine>[1]) {
  let seen: LanguageModelV4CallOptions | undefined;
  const model = programmedModel(({ options: o }) => {
    seen ??= o;
    return { text: 'ok' };
  });
  const h = makeEngine({ agents: {} }, { ...options, model: () => model });
  await (
    await h.engine.send({ prompt: 'hi' })
  ).done;
  const system = seen!.prompt
    .filter((m) => m.role === 'system')
    .map((m) => m.content)
    .join('\n');
  const tools = (seen!.tools ?? []).map((t) => t.name);
  return { system, tools };
}

describe('the supervisor prompt', () => {
  it('lists each allowed agent as name: description with our guidelines, then the user guidelines', () => {
    const text = supervisorPrompt([p('a', 'does A'), p('b', 'does B')], { guidelines: 'Prefer b for docs.' });
    expect(text).toContain('- a: does A\n- b: does B');
    expect(text).toContain('How to delegate well');
    expect(text.indexOf('How to delegate well')).toBeLessThan(text.indexOf('Prefer b for docs.'));
  });

  it('is replaced whole by systemPrompt', () => {
    expect(supervisorPrompt([p('a', 'x')], { systemPrompt: 'Only this.', guidelines: 'ignored' })).toBe('Only this.');
  });

  it('restricts the agents to the allowlist, and with no subagents offers no delegation tool', async () => {
    const agents = { a: agent('does A'), b: agent('does B') };
    const restricted = await firstCall({ agents, settings: { supervisor: { agents: ['b'] } } });
    expect(restricted.system).toContain('- b: does B');
    expect(restricted.system).not.toContain('- a: does A');
    expect(restricted.tools).toContain('delegate_task');

    const all = await firstCall({ agents, settings: { supervisor: { agents: [] } } });
    expect(all.system).toContain('- a: does A');

    const none = await firstCall({ agents: {} });
    // Only the workspace tools remain.
    expect(none.tools.filter((t) => t === 'delegate_task' || t.startsWith('subagent_'))).toEqual([]);
    expect(none.tools).toContain('read_file');
    expect(none.system).not.toContain('delegate_task');
  });

  it("carries the project's instruction files into the supervisor's and every subagent's system prompt", async () => {
    const systems: Record<string, string> = {};
    const model = (agentName: string) =>
      programmedModel(({ call, options }) => {
        systems[agentName] ??= options.prompt
          .filter((m) => m.role === 'system')
          .map((m) => m.content)
          .join('\n');
        if (agentName === 'supervisor' && call === 0)
          return { toolCalls: [{ tool: 'delegate_task', input: { task: 't', agents: ['a'] } }] };
        return { text: 'done' };
      });
    const models = { supervisor: model('supervisor'), a: model('a') };
    const h = makeEngine(
      { agents: {} },
      {
        agents: { a: agent('does A', { instructions: 'You are A.' }) },
        projectInstructions: [{ name: 'AGENTS.md', path: '/ws/AGENTS.md', text: 'Always use pnpm.' }],
        model: (caller) => models[caller.agent as keyof typeof models],
      },
    );
    await (
      await h.engine.send({ prompt: 'hi' })
    ).done;
    for (const who of ['supervisor', 'a']) {
      expect(systems[who]).toContain('<project-instructions file="AGENTS.md">\nAlways use pnpm.\n</project-instructions>');
    }
    expect(systems['a']!.indexOf('You are A.')).toBeLessThan(systems['a']!.indexOf('Always use pnpm.'));
  });
});
