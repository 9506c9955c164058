import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { nodeWorkspace } from '../../../../src/core/engine/nodeWorkspace';
import { createModelResolver } from '../../../../src/core/models/createModelResolver';
import { startChatServer, textReply, toolCallReply, type ChatServer, type RecordedRequest, type Reply } from '../../fakes/openAiServer';
import { agent, makeEngine } from '../engineHarness';

// Issue 43 item 2: a prefix that caches. Providers that cache a prompt (OpenAI and DeepSeek by
// themselves, Anthropic when asked) reuse what a request shares, from its first byte, with one
// before. So each run sends the same system prompt and tools on every call, and each call's
// messages begin with the previous call's messages, unchanged. Driven through the real engine
// against a real node:http server that records every request body; compaction (only when the
// provider says the context is full) is the one declared exception and is not exercised here.

const closers: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** The requests of one run (one model id each here), in the order they were sent. */
const byModel = (server: ChatServer, model: string): RecordedRequest[] => server.requests.filter((r) => r.body.model === model);

/** Asserts the caching contract over one run's requests. */
function expectStablePrefix(requests: RecordedRequest[], who: string): void {
  expect(requests.length, who).toBeGreaterThan(2);
  const messages = requests.map((r) => (r.body.messages ?? []).map((m) => JSON.stringify(m)));
  const system = messages.map((m) => m[0]);
  const tools = requests.map((r) => JSON.stringify(r.body.tools));
  for (let i = 1; i < requests.length; i++) {
    expect(system[i], `${who}: the system prompt of call ${i + 1}`).toBe(system[0]);
    expect(tools[i], `${who}: the tools of call ${i + 1}`).toBe(tools[0]);
    const before = messages[i - 1]!;
    expect(messages[i]!.length, `${who}: call ${i + 1} has fewer messages than call ${i}`).toBeGreaterThan(before.length);
    expect(messages[i]!.slice(0, before.length), `${who}: call ${i + 1} does not start with call ${i}'s messages`).toEqual(before);
  }
}

/** Resolves when `server` has seen `n` requests of `model`. */
function requestsSeen(server: ChatServer, model: string, n: number): Promise<void> {
  return new Promise((resolve) => {
    const poll = (): void => {
      if (byModel(server, model).length >= n) resolve();
      else setImmediate(poll);
    };
    poll();
  });
}

describe('a run sends a prefix that caches', () => {
  it('same system prompt and tools on every call, each call extends the one before (delegation, tool steps, a steer, a budget warning), and later turns keep the history bytes', async () => {
    const root = mkdtempSync(join(tmpdir(), 'subagents-prefix-'));
    closers.push(() => rmSync(root, { recursive: true, force: true }));
    writeFileSync(join(root, 'notes.md'), '# Notes\nThe answer is 42.\n');
    const server = await startChatServer();
    closers.push(() => server.close());

    const supervisorCalls = [
      // 1: start the worker in the background.
      (): Reply =>
        toolCallReply('s1', 'delegate_task', [
          JSON.stringify({ agents: ['worker'], task: 'Read the notes and report the answer.', background: true }),
        ]),
      // 2: steer it, with the runId its start returned.
      (r: RecordedRequest): Reply => {
        const result = r.body.messages?.find((m) => m.role === 'tool' && (m as { tool_call_id?: string }).tool_call_id === 's1');
        const [{ runId }] = JSON.parse(String(result?.content)) as [{ runId: string }];
        return toolCallReply('s2', 'background_runs', [
          JSON.stringify({ action: 'message', runIds: [runId], message: 'Quote the line exactly.' }),
        ]);
      },
      // 3: nothing more to do until the worker reports.
      (): Reply => textReply(['Waiting for the worker.']),
      // 4: the worker's report arrived as a message: answer.
      (): Reply => textReply(['The answer is 42.']),
      // 5, 6: the next turn of the thread, a new run.
      (): Reply => textReply(['Yes.']),
      (): Reply => textReply(['Still yes.']),
    ];
    const workerCalls = [
      (): Reply => toolCallReply('w1', 'list_dir', [JSON.stringify({ path: '.' })]),
      // Held until the supervisor's steer has been delivered (its third call comes after it).
      async (): Promise<Reply> => {
        await requestsSeen(server, 'sup', 3);
        return toolCallReply('w2', 'read_file', [JSON.stringify({ path: 'notes.md' })]);
      },
      (): Reply => toolCallReply('w3', 'find_files', [JSON.stringify({ pattern: '*.md' })]),
      (): Reply => textReply(['The answer is 42: "The answer is 42."']),
    ];
    const dispatch = (r: RecordedRequest): Reply | Promise<Reply> => {
      const calls = r.body.model === 'sup' ? supervisorCalls : workerCalls;
      const n = byModel(server, r.body.model ?? '').length;
      return calls[n - 1]?.(r) ?? { status: 500, message: `no reply for call ${n} of ${r.body.model}` };
    };
    server.replies = Array.from({ length: 20 }, () => dispatch);

    const h = makeEngine(
      { agents: {} },
      {
        agents: {
          // 15 tokens a call: the worker is warned at 80 % (44) after its third call, and its last call still fits.
          worker: agent('Reads files and reports.', { model: `openai-compatible:${server.baseURL}#worker`, maxTokens: 55 }),
        },
        settings: { model: `openai-compatible:${server.baseURL}#sup` },
        workspace: nodeWorkspace({ root }),
        createModelResolver: () => createModelResolver({ workspaceRoot: root, apiKey: () => undefined }),
      },
    );
    const sent = await h.engine.send({ prompt: 'What is the answer in the notes?' });
    const finished = await sent.done;
    expect(finished.error).toBeUndefined();
    expect(finished.status).toBe('ok');
    expect(finished.output).toContain('The answer is 42.');

    // The scenario happened as described: the steer reached the worker, the budget warned it.
    expect(h.events.some((e) => e.kind === 'run.message')).toBe(true);
    expect(h.events.some((e) => e.kind === 'warning' && e.code === 'budget')).toBe(true);
    expect(JSON.stringify(byModel(server, 'worker').at(-1)!.body.messages)).toContain('Quote the line exactly.');
    expect(byModel(server, 'sup')).toHaveLength(4);
    expect(byModel(server, 'worker')).toHaveLength(4);

    expectStablePrefix(byModel(server, 'sup'), 'the supervisor');
    expectStablePrefix(byModel(server, 'worker'), 'the worker');

    // Later turns of the thread are new runs: they send the same system prompt and tools, and the
    // thread's history (condensed, by design: conversationHistory.ts) is the same bytes from turn to turn.
    for (const prompt of ['Are you sure?', 'Really?']) {
      const next = await (await h.engine.send({ prompt, threadId: sent.threadId })).done;
      expect(next.status).toBe('ok');
    }
    const [first, second, third] = [0, 4, 5].map((i) => byModel(server, 'sup')[i]!);
    for (const later of [second!, third!]) {
      expect(JSON.stringify(later.body.messages![0])).toBe(JSON.stringify(first!.body.messages![0]));
      expect(JSON.stringify(later.body.tools)).toBe(JSON.stringify(first!.body.tools));
    }
    const turn2 = second!.body.messages!.map((m) => JSON.stringify(m));
    expect(third!.body.messages!.slice(0, turn2.length).map((m) => JSON.stringify(m))).toEqual(turn2);
  }, 30_000);
});
