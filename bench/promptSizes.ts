import type { LanguageModelV4, LanguageModelV4CallOptions, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine } from '../src/core/engine/engine';
import { nodeWorkspace } from '../src/core/engine/nodeWorkspace';
import { DEFAULT_SETTINGS, SUPERVISOR } from '../src/core/config/settings/engineSettings';
import type { ModelResolver } from '../src/core/models/modelResolver';
import type { Profile, ProfileSet } from '../src/core/config/profiles/profile';
import { MemoryThreadStore } from '../src/core/storage/threads/memoryThreadStore';

// `npm run bench -- --prompt`: what every model call of a run sends before its messages, the
// system prompt and the tools, for the supervisor and for a subagent (issue 43 item 1). Measured on
// what the engine hands the provider: a real engine, three agents, default settings, a trusted
// workspace, and a model that records each call's options. The tools count as the ai SDK gives
// them to every provider: each tool's name, description and input JSON schema, serialized as JSON.

/** The three agents of the measurement, as a user might define them. */
export const PROMPT_AGENTS: readonly Pick<Profile, 'name' | 'description' | 'instructions'>[] = [
  { name: 'explorer', description: 'Reads the code and answers questions about it.', instructions: 'You explore code and report facts.' },
  { name: 'coder', description: 'Makes focused code changes and runs the tests.', instructions: 'You change code carefully.' },
  { name: 'reviewer', description: 'Reviews a change for bugs and risks.', instructions: 'You review changes and list problems.' },
];

/** One tool as the provider receives it. */
export interface SentTool {
  name: string;
  description?: string;
  inputSchema: unknown;
}

/** What one run's model calls carry besides the conversation. */
export interface RunPrefix {
  system: string;
  tools: SentTool[];
  /** The tools as JSON: `[{name, description, inputSchema}, …]`. */
  toolsJson: string;
}

export interface PromptSizes {
  supervisor: RunPrefix;
  subagent: RunPrefix;
}

/** Rough tokens: characters / 4, the usual rule of thumb for English and JSON (no tokenizer is loaded). */
export const estimatedTokens = (chars: number): number => Math.round(chars / 4);

/** Runs a supervisor that delegates once to a subagent, and returns what the first call of each sent. */
export async function measurePromptSizes(): Promise<PromptSizes> {
  const calls: { agent: string; options: LanguageModelV4CallOptions }[] = [];
  const recording = (agent: string, reply: (options: LanguageModelV4CallOptions) => LanguageModelV4StreamPart[]): LanguageModelV4 => ({
    specificationVersion: 'v4',
    provider: 'bench',
    modelId: agent,
    supportedUrls: {},
    doGenerate: () => Promise.reject(new Error('the prompt bench only streams')),
    doStream: async (options) => {
      calls.push({ agent, options });
      return { stream: streamOf(reply(options)) };
    },
  });
  const supervisor = recording(SUPERVISOR, (options) =>
    options.prompt.at(-1)?.role === 'tool'
      ? textParts('Done.')
      : [
          { type: 'stream-start', warnings: [] },
          {
            type: 'tool-call',
            toolCallId: 'call-1',
            toolName: 'delegate_task',
            input: JSON.stringify({ task: 'Look around.', agents: ['explorer'] }),
          },
          { type: 'finish', usage: USAGE, finishReason: { unified: 'tool-calls', raw: 'tool_calls' } },
        ],
  );
  const child = recording('child', () => textParts('Nothing to report.'));
  const profiles: ProfileSet = {
    profiles: new Map(PROMPT_AGENTS.map((p): [string, Profile] => [p.name, { ...p, source: 'bench' }])),
    problems: [],
  };
  const resolver: ModelResolver = { resolve: (_spec, caller) => (caller.agent === SUPERVISOR ? supervisor : child) };
  const root = mkdtempSync(join(tmpdir(), 'subagents-prompt-bench-'));
  try {
    const engine = new Engine({
      store: new MemoryThreadStore(),
      workspace: nodeWorkspace({ root }),
      profiles: () => profiles,
      settings: () => ({ ...DEFAULT_SETTINGS, model: 'bench:mock' }),
      createModelResolver: () => resolver,
    });
    const { done } = await engine.send({ prompt: 'Look around the workspace.' });
    const finished = await done;
    if (finished.status !== 'ok') throw new Error(`the prompt bench's run ended ${finished.status}: ${finished.error ?? ''}`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  const first = (agent: string): RunPrefix => {
    const call = calls.find((c) => c.agent === agent);
    if (!call) throw new Error(`the prompt bench's ${agent} made no model call`);
    return prefixOf(call.options);
  };
  return { supervisor: first(SUPERVISOR), subagent: first('child') };
}

/** The system prompt and tools of one call, as the provider receives them. */
export function prefixOf(options: LanguageModelV4CallOptions): RunPrefix {
  const system = options.prompt
    .filter((m) => m.role === 'system')
    .map((m) => m.content)
    .join('\n\n');
  const tools = (options.tools ?? []).map((t): SentTool => {
    if (t.type !== 'function') return { name: t.name, inputSchema: t.args };
    return { name: t.name, ...(t.description === undefined ? {} : { description: t.description }), inputSchema: t.inputSchema };
  });
  return { system, tools, toolsJson: JSON.stringify(tools) };
}

/** The bench's lines: one per agent and part, characters and estimated tokens. */
export async function promptBench(): Promise<string[]> {
  const sizes = await measurePromptSizes();
  const line = (who: string, what: string, chars: number): string =>
    `  ${who.padEnd(10)} ${what.padEnd(28)} ${String(chars).padStart(6)} chars  ~${String(estimatedTokens(chars)).padStart(5)} tokens`;
  return [
    `Prompt bench: what every model call sends before the conversation, with ${PROMPT_AGENTS.length} agents and default settings (tokens estimated as characters / 4)`,
    line('supervisor', 'system prompt', sizes.supervisor.system.length),
    line('supervisor', `tools (${sizes.supervisor.tools.length}, JSON)`, sizes.supervisor.toolsJson.length),
    line('subagent', 'system prompt', sizes.subagent.system.length),
    line('subagent', `tools (${sizes.subagent.tools.length}, JSON)`, sizes.subagent.toolsJson.length),
  ];
}

const USAGE = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

function textParts(text: string): LanguageModelV4StreamPart[] {
  return [
    { type: 'stream-start', warnings: [] },
    { type: 'text-start', id: 't' },
    { type: 'text-delta', id: 't', delta: text },
    { type: 'text-end', id: 't' },
    { type: 'finish', usage: USAGE, finishReason: { unified: 'stop', raw: 'stop' } },
  ];
}

function streamOf(parts: LanguageModelV4StreamPart[]): ReadableStream<LanguageModelV4StreamPart> {
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  });
}
