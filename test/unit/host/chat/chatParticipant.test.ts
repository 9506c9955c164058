import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nodeWorkspace } from '../../../../src/core/engine/nodeWorkspace';
import { PromptQueue } from '../../../../src/core/engine/requests/promptQueue';
import { PendingApprovals } from '../../../../src/core/access/approvals/pendingApprovals';
import { handleChatRequest, type ChatParticipantDeps } from '../../../../src/host/chat/chatParticipant';
import type { ChatRequestShape } from '../../../../src/host/chat/chatShapes';
import type { Script } from '../../../../src/core/models/scriptSchema';
import type { LanguageModelV4 } from '@ai-sdk/provider';
import type { ModelCaller } from '../../../../src/core/models/modelResolver';
import { gatedModel } from '../../fakes/gatedModel';
import { programmedModel } from '../../core/programmedModel';
import { createModelResolver } from '../../../../src/core/models/createModelResolver';
import { SCRIPT_PATH, agent, makeEngine, type HarnessOptions } from '../../core/engineHarness';
import { cancellation, recordingStream } from './chatFakes';

// @subagents in Copilot Chat, over fakes of vscode.chat's shapes and a real engine and queue.

const MODEL = { vendor: 'copilot', family: 'gpt-test', name: 'GPT Test' };
const ask = (prompt: string, command?: string): ChatRequestShape => ({ prompt, command, model: MODEL });

/** Every spec (the chat's vscode-lm model too) plays the script, or `model`; the specs asked for are kept. */
function anySpec(script: Script, specs: string[], model?: (caller: ModelCaller) => LanguageModelV4): HarnessOptions['createModelResolver'] {
  return async () => {
    const scripted = await createModelResolver({ workspaceRoot: '/', apiKey: () => undefined, scripts: new Map([[SCRIPT_PATH, script]]) });
    return { resolve: (spec, caller) => (specs.push(spec), model?.(caller) ?? scripted.resolve(`scripted:${SCRIPT_PATH}`, caller)) };
  };
}

function setup(script: Script, options: { model?: (caller: ModelCaller) => LanguageModelV4 } = {}) {
  const specs: string[] = [];
  const h = makeEngine(script, {
    agents: { helper: agent('helps with things', { displayName: 'The Helper' }) },
    createModelResolver: anySpec(script, specs, options.model),
  });
  const queue = new PromptQueue(h.engine);
  const deps: ChatParticipantDeps = {
    engine: h.engine,
    queue,
    profiles: () => ({ profiles: h.profiles, problems: [] }),
    showCommand: 'subagents.openPanel',
  };
  return { h, queue, deps, specs };
}

const delegating: Script = {
  agents: {
    supervisor: [
      { toolCalls: [{ tool: 'delegate_task', input: { task: 'look into it', agents: ['helper'] } }] },
      { text: 'The helper says: all good.' },
    ],
    helper: [{ text: 'all good' }],
  },
};

describe('@subagents', () => {
  it("runs the engine on a thread of its own with the chat's model: the answer as markdown, each child a progress line, a button to the tree", async () => {
    const { h, deps, specs } = setup(delegating);
    const r = recordingStream();
    const result = await handleChatRequest(deps, ask('check the thing'), { history: [] }, r.stream, cancellation().token);
    const threadId = result.metadata!.threadId!;
    expect(result.errorDetails).toBeUndefined();
    expect(r.markdown()).toBe('The helper says: all good.');
    expect(r.progress()).toEqual(['The supervisor works on it with GPT Test…', 'helper: look into it', 'helper: done']);
    expect(r.parts.at(-1)).toEqual({
      kind: 'button',
      command: 'subagents.openPanel',
      title: 'Show the run tree in Subagents',
      arguments: [threadId],
    });
    const top = h.runs().find((run) => run.depth === 0)!;
    expect([top.threadId, top.agent, top.task]).toEqual([threadId, 'supervisor', 'check the thing']);
    expect(h.events.find((e) => e.kind === 'run.started')).toMatchObject({ model: 'vscode-lm:copilot/gpt-test' });
    expect(new Set(specs)).toEqual(new Set(['vscode-lm:copilot/gpt-test']));
  });

  it('a follow-up in the same chat continues its thread; /run lets one agent answer; /agents lists them', async () => {
    const { h, deps } = setup(
      { agents: {} },
      { model: (c) => programmedModel(({ userTexts }) => ({ text: `${c.agent}: ${userTexts().at(-1)}` })) },
    );
    const first = await handleChatRequest(deps, ask('one'), { history: [] }, recordingStream().stream, cancellation().token);
    const history = [{ prompt: 'one' }, { result: first, response: [] }];
    const r2 = recordingStream();
    const second = await handleChatRequest(deps, ask('two'), { history }, r2.stream, cancellation().token);
    expect(second.metadata!.threadId).toBe(first.metadata!.threadId);
    expect(r2.markdown()).toBe('supervisor: two');
    const r3 = recordingStream();
    await handleChatRequest(deps, ask('The Helper fix it please', 'run'), { history }, r3.stream, cancellation().token);
    expect(
      h
        .runs()
        .filter((r) => r.depth === 0)
        .map((r) => [r.agent, r.task, r.threadId === first.metadata!.threadId]),
    ).toEqual([
      ['supervisor', 'one', true],
      ['supervisor', 'two', true],
      ['helper', 'fix it please', true],
    ]);
    expect(r3.markdown()).toBe('helper: fix it please');
    const list = recordingStream();
    expect(await handleChatRequest(deps, ask('', 'agents'), { history: [] }, list.stream, cancellation().token)).toEqual({});
    expect(list.markdown()).toContain('- **The Helper** (`helper`): helps with things — *test*');
    const bad = recordingStream();
    const refused = await handleChatRequest(deps, ask('nobody do it', 'run'), { history: [] }, bad.stream, cancellation().token);
    expect(refused.errorDetails!.message).toMatch(/no enabled agent "nobody". Agents: helper/);
  });

  it('waits its turn behind the panel on the same thread, and a cancel while waiting takes it out, once working stops the run', async () => {
    const gated = gatedModel();
    const { h, queue, deps } = setup({ agents: {} }, { model: () => gated.model });
    const panel = await new Promise<string>((resolve) => {
      queue.onChange((c) => c.kind === 'sent' && resolve(c.threadId));
      queue.submit({ threadId: 't_chat1', prompt: 'from the panel' });
    });
    const history = [{ result: { metadata: { threadId: panel } } }];
    const waiting = cancellation();
    const queued = handleChatRequest(deps, ask('from chat'), { history }, recordingStream().stream, waiting.token);
    await gated.reached(1);
    expect(queue.queued('t_chat1').map((q) => q.prompt)).toEqual(['from chat']);
    waiting.cancel();
    expect((await queued).errorDetails!.message).toMatch(/taken out of the queue/);
    gated.calls[0]!.answer('panel answer');
    await h.engine.whenQuiet('t_chat1');
    const working = cancellation();
    const running = handleChatRequest(deps, ask('stop me'), { history }, recordingStream().stream, working.token);
    await gated.reached(2);
    working.cancel();
    const stopped = await running;
    expect(stopped.errorDetails!.message).toMatch(/cancelled/);
    expect(
      h
        .runs()
        .filter((r) => r.depth === 0)
        .map((r) => [r.task, r.state]),
    ).toEqual([
      ['from the panel', 'ok'],
      ['stop me', 'cancelled'],
    ]);
    expect(working.listeners()).toBe(0);
  });

  it("an approval waits in the panel (the engine's approver); the chat says where, and the run goes on once it is answered", async () => {
    const approvals = new PendingApprovals();
    const script: Script = {
      agents: { supervisor: [{ toolCalls: [{ tool: 'write_file', input: { path: 'notes.md', content: 'hi' } }] }, { text: 'written' }] },
    };
    const root = mkdtempSync(join(tmpdir(), 'chat-approval-'));
    const specs: string[] = [];
    const h = makeEngine(script, {
      approver: approvals,
      settings: { approval: 'ask' },
      workspace: nodeWorkspace({ root }),
      createModelResolver: anySpec(script, specs),
    });
    const deps: ChatParticipantDeps = {
      engine: h.engine,
      queue: new PromptQueue(h.engine),
      profiles: () => ({ profiles: h.profiles, problems: [] }),
      showCommand: 'subagents.openPanel',
    };
    const r = recordingStream();
    const asked = new Promise<void>((resolve) => h.engine.onEvent((e) => e.kind === 'approval.requested' && resolve()));
    const answer = handleChatRequest(deps, ask('write the notes'), { history: [] }, r.stream, cancellation().token);
    await asked;
    expect(r.progress()).toContain('Waiting for your approval of write_file in the Subagents panel…');
    const [waiting] = approvals.waiting();
    approvals.resolve(waiting!.approvalId, 'approved');
    expect((await answer).errorDetails).toBeUndefined();
    expect(r.markdown()).toBe('written');
    expect(readFileSync(join(root, 'notes.md'), 'utf8')).toBe('hi');
    rmSync(root, { recursive: true, force: true });
  });
});
