import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { vscodeStandInSource } from '../../../scripts/vscodeStandIn.mjs';
import { buildBesideEngine, runNode } from './besideEngine';

// The ai SDK's run machinery (dist/aiSdk.js: streamText, the middleware wrapper) is loaded by the
// first run, not with engine.js, and takes zod (classic and mini, both of which `ai` uses) from the
// bundle that loads it (zodFromHost.test.ts). Built with the production options beside engine.js,
// then loaded in a fresh node process, where a real agent loop runs: a model that calls a tool
// whose input the SDK checks with engine.js's zod, then answers.

let dir: string;

beforeAll(async () => {
  ({ dir } = await buildBesideEngine(['aiSdk']));
}, 60_000);

afterAll(() => rm(dir, { recursive: true, force: true }));

describe("the ai SDK's bundle", () => {
  it("runs an agent loop with engine.js's zod: a tool call checked against its schema, its result, the answer", () => {
    const r = runNode(`${vscodeStandInSource(process.cwd())}
require(${JSON.stringify(join(dir, 'engine.js'))});
const { z } = globalThis[Symbol.for('subagents.sharedZod')]['zod/v4'];
const { streamTextOnce, isStepCount } = require(${JSON.stringify(join(dir, 'aiSdk.js'))});
const usage = { inputTokens: { total: 1, noCache: 1 }, outputTokens: { total: 1, text: 1 } };
const finish = (unified) => ({ type: 'finish', finishReason: { unified, raw: unified }, usage });
const steps = [
  [{ type: 'tool-call', toolCallId: 'c1', toolName: 'add', input: JSON.stringify({ a: 2, b: 3 }) }, finish('tool-calls')],
  [{ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'the sum is 5' }, { type: 'text-end', id: 't' }, finish('stop')],
];
const prompts = [];
const model = {
  specificationVersion: 'v4', provider: 'test', modelId: 'm', supportedUrls: {},
  doGenerate: async () => { throw new Error('not used'); },
  doStream: async ({ prompt }) => {
    prompts.push(prompt);
    const parts = steps[prompts.length - 1];
    return { stream: new ReadableStream({ start(c) { for (const p of parts) c.enqueue(p); c.close(); } }) };
  },
};
const calls = [];
(async () => {
  const result = streamTextOnce({
    model,
    messages: [{ role: 'user', content: 'add 2 and 3' }],
    tools: { add: { description: 'adds', inputSchema: z.object({ a: z.number(), b: z.number() }), execute: async (input) => { calls.push(input); return input.a + input.b; } } },
    stopWhen: isStepCount(3),
    telemetry: { isEnabled: false },
  });
  let text = '';
  for await (const part of result.fullStream) {
    if (part.type === 'text-delta') text += part.text;
    if (part.type === 'error') throw part.error;
  }
  const toolResult = prompts[1].at(-1).content[0];
  process.stdout.write(JSON.stringify({ text, calls, toolResult: toolResult.output }));
})().catch((e) => { process.stderr.write(String(e && e.stack || e)); process.exit(1); });`);
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual({ text: 'the sum is 5', calls: [{ a: 2, b: 3 }], toolResult: { type: 'json', value: 5 } });
  });
});
