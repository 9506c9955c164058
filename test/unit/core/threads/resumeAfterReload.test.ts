import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LanguageModelV4CallOptions, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { MockLanguageModelV4 } from 'ai/test';
import { beforeEach, describe, expect, it } from 'vitest';
import { Engine } from '../../../../src/core/engine';
import { DEFAULT_SETTINGS } from '../../../../src/core/engineSettings';
import type { ModelCaller } from '../../../../src/core/models/modelResolver';
import { nodeWorkspace } from '../../../../src/core/nodeAdapters/nodeWorkspace';
import type { Profile } from '../../../../src/core/profiles/profile';
import { JsonlThreadStore } from '../../../../src/core/threads/jsonlThreadStore';
import type { UnsequencedRunEvent } from '../../../../src/shared/events';

// A reload is a new engine and a new store over the same directory (a new extension host).

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'resume-'));
  return () => rm(dir, { recursive: true, force: true });
});

type Reply = (caller: ModelCaller, call: number) => LanguageModelV4StreamPart[];

const finish = (unified: 'stop' | 'tool-calls'): LanguageModelV4StreamPart => ({
  type: 'finish',
  finishReason: { unified, raw: unified },
  usage: { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } },
});
const text = (t: string): LanguageModelV4StreamPart[] => [{ type: 'text-start', id: '1' }, { type: 'text-delta', id: '1', delta: t }, { type: 'text-end', id: '1' }, finish('stop')];
const call = (toolCallId: string, toolName: string, input: unknown): LanguageModelV4StreamPart[] => [
  { type: 'tool-call', toolCallId, toolName, input: JSON.stringify(input) },
  finish('tool-calls'),
];

/** One window: an engine over a JSONL store in `dir`; every model call's prompt is recorded by agent. */
function window(reply: Reply) {
  const prompts = new Map<string, LanguageModelV4CallOptions['prompt'][]>();
  const calls = new Map<string, number>();
  const store = new JsonlThreadStore({ dir, recoverInterrupted: true });
  const profiles = new Map<string, Profile>([['a', { name: 'a', description: 'helper', instructions: '', source: 'test' }]]);
  const engine = new Engine({
    store,
    workspace: nodeWorkspace({ root: dir }),
    profiles: () => ({ profiles, problems: [] }),
    settings: () => ({ ...DEFAULT_SETTINGS, model: 'test:model' }),
    createModelResolver: () => ({
      resolve: (_spec, caller) =>
        new MockLanguageModelV4({
          doStream: async (options) => {
            const list = prompts.get(caller.agent) ?? [];
            list.push(options.prompt);
            prompts.set(caller.agent, list);
            const n = calls.get(caller.agent) ?? 0;
            calls.set(caller.agent, n + 1);
            const parts: LanguageModelV4StreamPart[] = [{ type: 'stream-start', warnings: [] }, ...reply(caller, n)];
            return { stream: new ReadableStream({ start: (c) => (parts.forEach((p) => c.enqueue(p)), c.close()) }) };
          },
        }),
    }),
  });
  return { store, engine, prompts };
}

async function ask(w: ReturnType<typeof window>, prompt: string, threadId?: string) {
  const sent = await w.engine.send({ prompt, ...(threadId ? { threadId } : {}) });
  await sent.done;
  await w.engine.whenQuiet(sent.threadId);
  return sent.threadId;
}

describe('after a reload', () => {
  it("the supervisor's history includes the delegation results it had", async () => {
    const before = window((caller, n) =>
      caller.agent === 'supervisor' ? (n === 0 ? call('c1', 'delegate_task', { task: 'find the number', agents: ['a'] }) : text('I asked a.')) : text('The number is 4217.'),
    );
    const threadId = await ask(before, 'What is the number?');
    await before.store.closeAll();

    const after = window(() => text('It was 4217.'));
    await ask(after, 'Remind me: what did a find?', threadId);
    const prompt = JSON.stringify(after.prompts.get('supervisor')![0]);
    expect(prompt).toContain('What is the number?');
    expect(prompt).toContain('The number is 4217.');
    expect(prompt).toContain('delegate_task');
    expect(prompt).toContain('Remind me');
  });

  it("continuing a child thread sends the child its own history", async () => {
    let childThread = '';
    const before = window((caller, n) =>
      caller.agent === 'supervisor' ? (n === 0 ? call('c1', 'delegate_task', { task: 'pick a colour', agents: ['a'] }) : text('ok')) : text('I pick teal.'),
    );
    const threadId = await ask(before, 'start');
    childThread = (await before.store.list()).find((t) => t.parentThreadId === threadId)!.id;
    await before.store.closeAll();

    const after = window((caller, n) =>
      caller.agent === 'supervisor'
        ? n === 0
          ? call('c2', 'delegate_task', { task: 'which colour did you pick?', agents: ['a'], continueThreadId: childThread })
          : text('done')
        : text('teal'),
    );
    await ask(after, 'ask a again', threadId);
    const childPrompt = JSON.stringify(after.prompts.get('a')![0]);
    expect(childPrompt).toContain('pick a colour');
    expect(childPrompt).toContain('I pick teal.');
    expect(childPrompt).toContain('which colour did you pick?');
  });

  it('a background child that was running is interrupted, and the next turn is told so with its partial output', async () => {
    // The window that ran it crashed: its thread files end mid-run, and its leases are gone.
    const crashed = new JsonlThreadStore({ dir });
    const t = 't_crashed';
    const c = 'c_background';
    await crashed.open({ id: t, title: 'go', parentThreadId: null, agent: 'supervisor' });
    await crashed.open({ id: c, title: 'watch the logs', parentThreadId: t, agent: 'a' });
    const ev = (e: Record<string, unknown>) => crashed.append({ v: 1, ts: Date.now(), ...e } as UnsequencedRunEvent);
    ev({ kind: 'run.started', threadId: t, runId: 'r_top', parentRunId: null, agent: 'supervisor', agentPath: ['supervisor'], depth: 0, task: 'go', model: 'm' });
    ev({ kind: 'tool.started', threadId: t, runId: 'r_top', toolCallId: 'k1', tool: 'subagent_start', input: { task: 'watch the logs', agent: 'a' } });
    ev({ kind: 'run.started', threadId: c, runId: 'r_bg', parentRunId: 'r_top', parentThreadId: t, parentToolCallId: 'k1', agent: 'a', agentPath: ['supervisor', 'a'], depth: 1, task: 'watch the logs', model: 'm' });
    ev({ kind: 'tool.finished', threadId: t, runId: 'r_top', toolCallId: 'k1', tool: 'subagent_start', output: { status: 'started', runId: 'r_bg', threadId: c }, isError: false });
    ev({ kind: 'text.delta', threadId: t, runId: 'r_top', text: 'Started a watcher.' });
    ev({ kind: 'text.delta', threadId: c, runId: 'r_bg', text: 'Saw 3 errors so far' });
    await crashed.closeAll();

    const after = window(() => text('Noted.'));
    const family = await after.store.getFamily(t);
    const bg = family!.events.find((e) => e.kind === 'run.finished' && e.runId === 'r_bg');
    expect(bg).toMatchObject({ status: 'interrupted', output: 'Saw 3 errors so far' });
    await ask(after, 'What did the watcher see?', t);
    const prompt = JSON.stringify(after.prompts.get('supervisor')![0]);
    expect(prompt).toContain('r_bg');
    expect(prompt).toMatch(/interrupted/);
    expect(prompt).toContain('Saw 3 errors so far');
    expect(prompt).toContain('What did the watcher see?');
  });
});
