import { describe, expect, it } from 'vitest';
import type { RunConfig, RunEvent, RunEventOf } from '../../../../src/shared/events';
import type { Profile } from '../../../../src/core/config/profiles/profile';
import { nodeWorkspace } from '../../../../src/core/engine/nodeWorkspace';
import { makeEngine, SCRIPT_PATH } from '../engineHarness';

const SPEC = `scripted:${SCRIPT_PATH}`;
const configs = (events: RunEvent[]) =>
  new Map(events.filter((e): e is RunEventOf<'run.config'> => e.kind === 'run.config').map((e) => [e.runId, e]));

/** Profiles as the loader would hand them over, one from each place a profile can come from. */
const PROFILES: Profile[] = [
  {
    name: 'explore',
    description: 'reads',
    instructions: 'Explore read-only.',
    source: 'built-in',
    tools: ['read_file', 'list_dir', 'find_files', 'search_text'],
  },
  {
    name: 'mine',
    description: 'user one',
    instructions: 'Mine.',
    source: '~/.claude/agents/mine.md',
    origin: { path: '/home/me/.claude/agents/mine.md', ranges: {} },
  },
  {
    name: 'helper',
    description: 'from user settings',
    instructions: 'Help.',
    source: 'user settings',
    disallowedTools: ['run_command'],
    maxTokens: 40_000,
  },
  {
    name: 'reviewer',
    description: 'from a file',
    instructions: 'Review.',
    source: '.vscode/agents/reviewer.md',
    origin: { path: '/ws/.vscode/agents/reviewer.md', ranges: {} },
    model: SPEC,
    requestedModel: 'fast',
    maxSteps: 7,
  },
  {
    name: 'lead',
    description: 'from workspace settings',
    instructions: 'Lead.',
    source: 'workspace settings',
    timeoutMs: 60_000,
    requestedModel: ['gpt-9-turbo', 'not-a-model'],
  },
];

async function runAll() {
  const turns = Object.fromEntries(PROFILES.map((p) => [p.name, [{ text: `${p.name} done` }]]));
  const h = makeEngine(
    {
      agents: {
        supervisor: [
          { toolCalls: [{ tool: 'delegate_task', input: { task: 'look', agents: PROFILES.map((p) => p.name), context: 'src/ only' } }] },
          { text: 'ok' },
        ],
        ...turns,
      },
    },
    {
      settings: { modelAliases: { fast: [SPEC] } },
      projectInstructions: [{ name: 'AGENTS.md', path: '/ws/AGENTS.md', text: 'Use tabs.' }],
      problems: [
        {
          source: 'workspace settings',
          name: 'lead',
          field: 'model',
          severity: 'information',
          code: 'model-unknown',
          message: 'model "gpt-9-turbo", "not-a-model" name no model known here, so the agent uses its parent\'s model',
        },
      ],
    },
  );
  for (const p of PROFILES) h.profiles.set(p.name, p);
  await (
    await h.engine.send({ prompt: 'go' })
  ).done;
  const byAgent = new Map(h.runs().map((r) => [r.agent, r]));
  const all = configs(h.events);
  const of = (agent: string): RunConfig & { kind: string } => all.get(byAgent.get(agent)!.runId)!;
  return { h, of };
}

describe('run.config: what each run was given, and why', () => {
  it('is written right after run.started, for the supervisor and every child', async () => {
    const { h } = await runAll();
    for (const run of h.runs()) {
      const own = h.events.filter((e) => e.runId === run.runId);
      expect(own.slice(0, 2).map((e) => e.kind)).toEqual(['run.started', 'run.config']);
    }
  });

  it('names the source of each profile: built-in, a user agent file, user settings, a workspace agent file, workspace settings', async () => {
    const { of } = await runAll();
    expect(of('supervisor').profileSource).toBe('built-in');
    expect(of('explore')).toMatchObject({ profileSource: 'built-in' });
    expect(of('explore').profilePath).toBeUndefined();
    expect(of('mine')).toMatchObject({ profileSource: '~/.claude/agents/mine.md', profilePath: '/home/me/.claude/agents/mine.md' });
    expect(of('helper')).toMatchObject({ profileSource: 'user settings' });
    expect(of('reviewer')).toMatchObject({ profileSource: '.vscode/agents/reviewer.md', profilePath: '/ws/.vscode/agents/reviewer.md' });
    expect(of('lead')).toMatchObject({ profileSource: 'workspace settings' });
  });

  it('says how the model was reached: the settings, inheritance, an alias, a list none of which could be used', async () => {
    const { h, of } = await runAll();
    expect(of('supervisor').model).toEqual({
      requested: null,
      effective: SPEC,
      via: '"subagents.model" (the model in your settings): the profile names no model',
    });
    expect(of('mine').model).toEqual({
      requested: null,
      effective: SPEC,
      via: 'its parent\'s model (the "supervisor" run): the profile names no model',
    });
    expect(of('reviewer').model).toEqual({
      requested: 'fast',
      effective: SPEC,
      via: `${SPEC}: "fast", an alias in subagents.modelAliases`,
    });
    expect(of('lead').model).toEqual({
      requested: ['gpt-9-turbo', 'not-a-model'],
      effective: SPEC,
      via: 'its parent\'s model (the "supervisor" run), because "gpt-9-turbo", "not-a-model" name no model known here, so the agent uses its parent\'s model',
    });
    // The node says so too: run.started carries the alias and the fallback, not the plain cases.
    const started = (agent: string) => h.events.find((e): e is RunEventOf<'run.started'> => e.kind === 'run.started' && e.agent === agent)!;
    expect(started('reviewer').modelVia).toBe('"fast", an alias in subagents.modelAliases');
    expect(started('lead').modelVia).toBe(
      'fallback to its parent\'s model (the "supervisor" run): "gpt-9-turbo", "not-a-model" cannot be used here',
    );
    expect(started('mine').modelVia).toBeUndefined();
  });

  it('lists the final tools and why each missing one is missing', async () => {
    const { of } = await runAll();
    expect(of('explore').tools.effective).toEqual(['read_file', 'list_dir', 'find_files', 'search_text']);
    expect(of('explore').tools.declared).toEqual({ tools: ['read_file', 'list_dir', 'find_files', 'search_text'] });
    expect(of('helper').tools.declared).toEqual({ disallowedTools: ['run_command'] });
    expect(of('mine').tools.declared).toBeUndefined();
    const removed = (agent: string) => Object.fromEntries(of(agent).tools.removed.map((r) => [r.tool, r.reason]));
    expect(removed('explore')).toMatchObject({ write_file: "not in the profile's tools", run_command: "not in the profile's tools" });
    expect(removed('helper')).toMatchObject({
      run_command: "in the profile's disallowedTools",
      ask_user: 'the child filter: only the supervisor talks to the user or installs things',
      install_package: 'the child filter: only the supervisor talks to the user or installs things',
      delegate_task: 'the depth limit: subagents.maxDepth is 1 and this run is at depth 1',
    });
    expect(of('helper').tools.effective).not.toContain('run_command');
    expect(of('supervisor').tools.effective).toEqual(expect.arrayContaining(['delegate_task', 'background_runs', 'ask_user']));
  });

  it('gives the limits with their sources, and the words actually sent', async () => {
    const { of } = await runAll();
    expect(of('reviewer').limits).toEqual({ maxSteps: { value: 7, source: 'the "reviewer" profile\'s maxSteps' } });
    expect(of('lead').limits).toEqual({
      maxSteps: { value: 25, source: 'the default (25)' },
      timeoutMs: { value: 60_000, source: 'the "lead" profile\'s timeoutMs' },
    });
    expect(of('helper').limits.maxTokens).toEqual({ value: 40_000, source: 'the "helper" profile\'s maxTokens' });
    const reviewer = of('reviewer');
    expect(reviewer.systemPrompt).toMatch(/^Review\.\n\nYou work on a task delegated to you/);
    expect(reviewer.systemPrompt).toContain('Use tabs.');
    expect(reviewer.projectInstructions).toEqual(['AGENTS.md']);
    expect(reviewer.taskMessage).toBe('look\n\n## Context\nsrc/ only');
    expect(of('supervisor').taskMessage).toBe('go');
  });

  it('in an untrusted workspace, says that trust took the tools that change files or run code', async () => {
    const h = makeEngine(
      {
        agents: {
          supervisor: [{ toolCalls: [{ tool: 'delegate_task', input: { task: 'look', agents: ['explore'] } }] }, { text: 'ok' }],
          explore: [{ text: 'done' }],
        },
      },
      { workspace: nodeWorkspace({ root: '/workspace', trusted: false }) },
    );
    h.profiles.set('explore', { name: 'explore', description: 'reads', instructions: 'Read.', source: 'built-in' });
    await (
      await h.engine.send({ prompt: 'go' })
    ).done;
    const config = [...configs(h.events).values()].find((c) => c.runId === h.runs().find((r) => r.agent === 'explore')!.runId)!;
    const removed = Object.fromEntries(config.tools.removed.map((r) => [r.tool, r.reason]));
    expect(removed).toMatchObject({ write_file: 'the workspace is not trusted', run_command: 'the workspace is not trusted' });
    expect(config.tools.effective).toContain('read_file');
    expect(config.tools.effective).not.toContain('write_file');
  });
});
