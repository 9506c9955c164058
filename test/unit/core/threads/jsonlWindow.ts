import type { LanguageModelV4CallOptions, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { MockLanguageModelV4 } from 'ai/test';
import { Engine } from '../../../../src/core/engine/engine';
import { DEFAULT_SETTINGS } from '../../../../src/core/config/settings/engineSettings';
import type { ModelCaller } from '../../../../src/core/models/modelResolver';
import { nodeWorkspace } from '../../../../src/core/engine/nodeWorkspace';
import type { Profile } from '../../../../src/core/config/profiles/profile';
import { JsonlThreadStore } from '../../../../src/core/storage/threads/jsonlThreadStore';

// One window of the extension for the store's tests: an engine over a JSONL store in a directory,
// with one helper agent "a" and a mock model whose replies a function gives per agent and call.

export type Reply = (caller: ModelCaller, call: number) => LanguageModelV4StreamPart[];

const finish = (unified: 'stop' | 'tool-calls'): LanguageModelV4StreamPart => ({
  type: 'finish',
  finishReason: { unified, raw: unified },
  usage: { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } },
});

/** A reply that says `t` and stops. */
export const text = (t: string): LanguageModelV4StreamPart[] => [
  { type: 'text-start', id: '1' },
  { type: 'text-delta', id: '1', delta: t },
  { type: 'text-end', id: '1' },
  finish('stop'),
];

/** A reply that calls one tool. */
export const call = (toolCallId: string, toolName: string, input: unknown): LanguageModelV4StreamPart[] => [
  { type: 'tool-call', toolCallId, toolName, input: JSON.stringify(input) },
  finish('tool-calls'),
];

/** Every model call's prompt is recorded by agent. */
export function jsonlWindow(dir: string, reply: Reply, options: { recoverInterrupted?: boolean } = {}) {
  const prompts = new Map<string, LanguageModelV4CallOptions['prompt'][]>();
  const calls = new Map<string, number>();
  const store = new JsonlThreadStore({ dir, ...options });
  const profiles = new Map<string, Profile>([['a', { name: 'a', description: 'helper', instructions: '', source: 'test' }]]);
  const engine = new Engine({
    store,
    workspace: nodeWorkspace({ root: dir }),
    profiles: () => ({ profiles, problems: [] }),
    settings: () => ({ ...DEFAULT_SETTINGS, model: 'test:model' }),
    createModelResolver: () => ({
      resolve: (_spec, caller) =>
        new MockLanguageModelV4({
          doStream: async (callOptions) => {
            const list = prompts.get(caller.agent) ?? [];
            list.push(callOptions.prompt);
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
