import type { LanguageModelV4CallOptions, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { isStepCount, streamText, tool, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptPlayer } from '../../../../src/core/models/scriptedModel';
import type { Script } from '../../../../src/core/models/scriptSchema';
import { agent, makeEngine } from '../engineHarness';
import { makeWorld, RecordingApprover, runScript, snapshot, spyWorkspace } from './toolWorld';

let world: Awaited<ReturnType<typeof makeWorld>>;
beforeEach(async () => {
  world = await makeWorld();
  await writeFile(join(world.root, 'README.md'), 'hello\n');
});
afterEach(() => world.cleanup());

const barredCalls = [
  { tool: 'ask_user', input: { question: 'Which database should I use?' } },
  { tool: 'install_package', input: { manager: 'npm', name: 'left-pad' } },
  { tool: 'install_extension', input: { id: 'evil.extension' } },
  { tool: 'open_file', input: { path: 'README.md' } },
];

const delegating = (childTurns: Script['agents'][string]): Script => ({
  agents: {
    supervisor: [{ toolCalls: [{ tool: 'delegate_task', input: { task: 'pick a database', agents: ['worker'] } }] }, { text: 'done' }],
    worker: childTurns,
  },
});

describe('the child filter', () => {
  it("a child's call to a tool that does not exist names only the tools it has, never the hidden ones", async () => {
    const r = await runScript(delegating([{ toolCalls: [{ tool: 'frobnicate', input: {} }] }, { text: 'gave up' }]), {
      root: world.root,
      agents: { worker: agent('works') },
    });
    const child = r.h.runs().find((run) => run.agent === 'worker')!;
    const error = String(child.toolCalls[0]!.output);
    expect(error).toMatch(
      /There is no tool "frobnicate"\. The tools you have: read_file, list_dir, .*run_command, web_fetch, todo_write\./,
    );
    for (const hidden of ['ask_user', 'open_file', 'install_package', 'install_extension', 'delegate_task'])
      expect(error).not.toContain(hidden);
    expect(child.state).toBe('ok');
  });

  it("refuses a child's forged ask_user and install_package at execution, telling it to hand back; nothing runs", async () => {
    const before = await snapshot(world.base);
    const approver = new RecordingApprover(() => 'approved');
    const r = await runScript(delegating([{ toolCalls: barredCalls }, { text: 'handed back' }]), {
      root: world.root,
      approver,
      settings: { approval: 'trust' },
      agents: { worker: agent('works') },
    });
    const child = r.h.runs().find((run) => run.agent === 'worker')!;
    const calls = child.toolCalls.map((c) => [c.tool, c.state, (c.output as { error?: string }).error]);
    expect(calls).toHaveLength(4);
    for (const [, state, error] of calls) {
      expect(state).toBe('error');
      expect(error).toMatch(/not available to subagents/);
      expect(error).toMatch(/final answer, so your supervisor can take it up/);
    }
    // Nothing reached the host: no question, no process, no install, no approval.
    expect(r.questions).toEqual([]);
    expect(r.commands).toEqual([]);
    expect(r.installs).toEqual([]);
    expect(approver.requests).toEqual([]);
    expect(await snapshot(world.base)).toEqual(before);
    expect(child.state).toBe('ok');
  });

  it("never shows a child's model the interactive and install tools; the supervisor keeps them", async () => {
    const seen = new Map<string, string[]>();
    const script = delegating([{ text: 'ok' }]);
    const player = new ScriptPlayer(script);
    const h = makeEngine(script, {
      agents: { worker: agent('works') },
      workspace: spyWorkspace(world.root).workspace,
      // Records the tools each agent's provider is actually sent (inside the engine's own wrapping).
      model: (caller) =>
        wrapLanguageModel({
          model: player.modelFor(caller),
          middleware: {
            transformParams: async ({ params }) => {
              seen.set(caller.agent, (params.tools ?? []).map((t) => t.name).sort());
              return params;
            },
          },
        }),
    });
    const { done } = await h.engine.send({ prompt: 'go' });
    await done;
    expect(seen.get('worker')).toEqual([
      'edit_file',
      'find_files',
      'list_dir',
      'read_file',
      'run_command',
      'search_text',
      'todo_write',
      'web_fetch',
      'write_file',
    ]);
    expect(seen.get('supervisor')).toEqual(
      expect.arrayContaining(['ask_user', 'open_file', 'install_package', 'install_extension', 'delegate_task', 'write_file']),
    );
  });

  it('lets the supervisor ask the user', async () => {
    const r = await runScript({ agents: { supervisor: [{ toolCalls: [barredCalls[0]!] }, { text: 'done' }] } }, { root: world.root });
    expect(r.questions).toEqual(['Which database should I use?']);
    expect(r.toolResults('ask_user')).toEqual([{ answer: 'an answer' }]);
  });

  it('applies a profile allowlist: the read-only explorer gets the read tools only', async () => {
    const r = await runScript(
      delegating([{ toolCalls: [{ tool: 'write_file', input: { path: 'x.txt', content: 'x' } }] }, { text: 'ok' }]),
      {
        root: world.root,
        settings: { approval: 'trust' },
        agents: { worker: agent('explores', { tools: ['read_file', 'list_dir', 'find_files', 'search_text'] }) },
      },
    );
    const call = r.h.runs().find((run) => run.agent === 'worker')!.toolCalls[0]!;
    expect(call.state).toBe('error');
    expect(String(call.output)).toMatch(
      /There is no tool "write_file"\. The tools you have: read_file, list_dir, find_files, search_text\./,
    );
    expect(await snapshot(world.root)).toEqual({ 'README.md': 'hello\n' });
  });
});

describe("the SDK's activeTools (why the engine hides tools in a model middleware instead)", () => {
  it('does not execute a forged call to an inactive tool: it fails as an unknown tool, so it cannot carry our refusal', async () => {
    let executed = false;
    const forged: LanguageModelV4StreamPart[] = [
      { type: 'stream-start', warnings: [] },
      { type: 'tool-call', toolCallId: 'c1', toolName: 'ask_user', input: '{"question":"?"}' },
      {
        type: 'finish',
        usage: {
          inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
          outputTokens: { total: 1, text: 1, reasoning: undefined },
        },
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
      },
    ];
    const model = new MockLanguageModelV4({
      doStream: async () => ({
        stream: new ReadableStream({
          start: (c) => {
            for (const p of forged) c.enqueue(p);
            c.close();
          },
        }),
      }),
    });
    const result = streamText({
      model,
      prompt: 'hi',
      tools: { ask_user: tool({ inputSchema: z.object({ question: z.string() }), execute: async () => ((executed = true), 'answer') }) },
      activeTools: [],
      stopWhen: isStepCount(1),
    });
    const errors: string[] = [];
    for await (const part of result.fullStream) if (part.type === 'tool-error') errors.push(String(part.error));
    expect(executed).toBe(false);
    expect(errors[0]).toMatch(/unavailable tool 'ask_user'/);
    expect((model.doStreamCalls[0] as LanguageModelV4CallOptions).tools ?? []).toEqual([]);
  });
});
