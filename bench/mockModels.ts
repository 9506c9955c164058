import type { LanguageModelV4, LanguageModelV4CallOptions, LanguageModelV4StreamPart, LanguageModelV4Usage } from '@ai-sdk/provider';

// Hand-written LanguageModelV4 mocks shared by every column of the bench, so the floor (bare ai@7)
// and our engine drive exactly the same models (the peers in bench/peers/ wrap these same models,
// or replay the same script and timing through their own model interface). No timers when the
// latency is 0: the floor is then pure SDK and event-loop work.

const usage: LanguageModelV4Usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 50, text: 50, reasoning: undefined },
};

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** What a subagent's model streams: `deltas` text deltas. */
export const childDeltas = (deltas = 50): string[] => Array.from({ length: deltas }, (_, i) => `word${i} `);

/** How many streams the subagents' models have started: lets a bench check that every child ran. */
export const childStreams = { count: 0 };

/** What the supervisor's model says once it has its tool results. */
export const SUPERVISOR_ANSWER = ['All subagents ', 'reported back.'];

function streamOf(latencyMs: number, parts: () => LanguageModelV4StreamPart[]): ReadableStream<LanguageModelV4StreamPart> {
  return new ReadableStream({
    async start(controller) {
      if (latencyMs > 0) await sleep(latencyMs);
      for (const part of parts()) controller.enqueue(part);
      controller.close();
    },
  });
}

function mockModel(modelId: string, doStream: LanguageModelV4['doStream']): LanguageModelV4 {
  return {
    specificationVersion: 'v4',
    provider: 'bench',
    modelId,
    supportedUrls: {},
    doGenerate: () => Promise.reject(new Error('the bench only streams')),
    doStream,
  };
}

/** A subagent's model: waits `latencyMs` (time to first token), then streams `deltas` text deltas. */
export function childModel(latencyMs: number, deltas = 50): LanguageModelV4 {
  return mockModel('child', async () => {
    childStreams.count++;
    return {
      stream: streamOf(latencyMs, () => [
        { type: 'stream-start', warnings: [] },
        { type: 'text-start', id: 't' },
        ...childDeltas(deltas).map((delta): LanguageModelV4StreamPart => ({ type: 'text-delta', id: 't', delta })),
        { type: 'text-end', id: 't' },
        { type: 'finish', usage, finishReason: { unified: 'stop', raw: 'stop' } },
      ]),
    };
  });
}

/**
 * The supervisor's model: its first call asks for one tool call (`toolName` with `input`); once
 * the prompt holds the tool's result it answers with a short text. Stateless, so one instance
 * serves any number of runs.
 */
export function supervisorModel(toolName: string, input: unknown): LanguageModelV4 {
  return mockModel('supervisor', async (options: LanguageModelV4CallOptions) => {
    const answered = options.prompt.at(-1)?.role === 'tool';
    return {
      stream: streamOf(0, () =>
        answered
          ? [
              { type: 'stream-start', warnings: [] },
              { type: 'text-start', id: 'a' },
              ...SUPERVISOR_ANSWER.map((delta): LanguageModelV4StreamPart => ({ type: 'text-delta', id: 'a', delta })),
              { type: 'text-end', id: 'a' },
              { type: 'finish', usage, finishReason: { unified: 'stop', raw: 'stop' } },
            ]
          : [
              { type: 'stream-start', warnings: [] },
              { type: 'tool-call', toolCallId: `call-${Math.random().toString(36).slice(2)}`, toolName, input: JSON.stringify(input) },
              { type: 'finish', usage, finishReason: { unified: 'tool-calls', raw: 'tool_calls' } },
            ],
      ),
    };
  });
}

/** The names of the scenario's N subagents. */
export const agentNames = (n: number): string[] => Array.from({ length: n }, (_, i) => `agent-${i + 1}`);

export const TASK = 'Summarise what you find in the workspace.';
