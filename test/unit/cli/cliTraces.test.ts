import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../fakes/otlpReceiver';
import { buildCliInto, cleanup, put, startCli, workspace } from './mcpHarness';

// Issue 43 item 6 in the real CLI: a scripted supervisor delegates to a helper; with --otlp-endpoint
// the runs' spans reach a local OTLP/HTTP collector before the process exits. A preloaded hook
// records whether the tracing bundle (telemetry.js) is ever loaded.
vi.setConfig({ testTimeout: 90_000 });

let build: { dir: string; cli: string };
let ws: string;
let receiver: OtlpReceiver;

const SCRIPT = {
  agents: {
    supervisor: [
      {
        toolCalls: [{ tool: 'delegate_task', input: { task: 'count the zebras', agents: ['helper'] } }],
        usage: { inputTokens: 120, outputTokens: 12 },
      },
      { text: 'There are 7 zebras.', usage: { inputTokens: 160, outputTokens: 8 } },
    ],
    helper: [{ text: 'I counted 7.', usage: { inputTokens: 40, outputTokens: 4 } }],
  },
};

/**
 * Logs each load of telemetry.js: by Node's loader, or by our code cache (which reads the file
 * itself, src/core/platform/codeCache/), whichever the CLI uses.
 */
const PRELOAD = `const Module = require('node:module');
const fs = require('node:fs');
const seen = (path) => typeof path === 'string' && /telemetry\\.js$/.test(path) && fs.appendFileSync(process.env.LOAD_LOG, path + '\\n');
const load = Module._load;
Module._load = function (request, ...rest) {
  seen(request);
  return load.call(this, request, ...rest);
};
const read = fs.readFileSync;
fs.readFileSync = function (path, ...rest) {
  seen(path);
  return read.call(this, path, ...rest);
};
`;

beforeAll(async () => {
  build = await buildCliInto();
}, 90_000);
afterAll(() => cleanup(build.dir));
beforeEach(async () => {
  ws = await workspace();
  receiver = await startOtlpReceiver();
  await put(ws, 'script.json', SCRIPT);
  await put(ws, 'preload.cjs', PRELOAD);
  await put(ws, 'loads.log', '');
  return async () => {
    await receiver.close();
    await cleanup(ws);
  };
});

async function run(flags: string[], settings: Record<string, unknown> = {}) {
  await put(ws, '.vscode/settings.json', { 'subagents.agents': { helper: { description: 'Counts things' } }, ...settings });
  const result = await startCli(build.cli, ws, ['run', '--model', 'scripted:script.json', ...flags, 'How many zebras?'], {
    NODE_OPTIONS: `--require ${join(ws, 'preload.cjs')}`,
    LOAD_LOG: join(ws, 'loads.log'),
  });
  expect(result.code, result.stderr).toBe(0);
  const loaded = (await readFile(join(ws, 'loads.log'), 'utf8')).split('\n').filter(Boolean);
  return { result, loaded, bodies: receiver.requests.map((r) => r.body).join('\n') };
}

const one = (spans: ReceivedSpan[], name: string): ReceivedSpan => {
  const found = spans.filter((s) => s.name === name);
  expect(found, `one "${name}" among: ${spans.map((s) => s.name).join(', ')}`).toHaveLength(1);
  return found[0]!;
};

describe('subagents run --otlp-endpoint', () => {
  it('sends every run and tool call before it exits, parented as the run tree, with tokens and no content', async () => {
    const { loaded, bodies } = await run(['--otlp-endpoint', receiver.url]);
    expect(loaded.length, 'telemetry.js was loaded').toBeGreaterThan(0);
    const spans = receiver.spans;
    const supervisor = one(spans, 'invoke_agent supervisor');
    const delegate = one(spans, 'execute_tool delegate_task');
    const helper = one(spans, 'invoke_agent helper');
    expect(supervisor.parentSpanId).toBe('');
    expect(helper.parentSpanId).toBe(delegate.spanId);
    expect(spans.find((s) => s.spanId === delegate.parentSpanId)?.parentSpanId).toBe(supervisor.spanId);
    expect(supervisor.attributes).toMatchObject({
      'gen_ai.usage.input_tokens': 280,
      'gen_ai.usage.output_tokens': 20,
      'subagents.run.status': 'ok',
    });
    expect(helper.attributes).toMatchObject({ 'gen_ai.usage.input_tokens': 40, 'gen_ai.usage.output_tokens': 4 });
    expect(bodies).not.toMatch(/zebra|I counted|gen_ai\.input\.messages|gen_ai\.tool\.call\.arguments/);
  });

  it('with --otlp-record-content, the traces hold the prompts, the outputs and the tool arguments', async () => {
    await run(['--otlp-endpoint', receiver.url, '--otlp-record-content']);
    const supervisor = one(receiver.spans, 'invoke_agent supervisor');
    expect(String(supervisor.attributes['gen_ai.input.messages'])).toContain('How many zebras?');
    expect(String(supervisor.attributes['gen_ai.output.messages'])).toContain('There are 7 zebras.');
    expect(String(one(receiver.spans, 'execute_tool delegate_task').attributes['gen_ai.tool.call.arguments'])).toContain(
      'count the zebras',
    );
  });

  it('a workspace that names a collector sends nothing there, loads no tracing code, and is told so', async () => {
    const { result, loaded } = await run([], {
      'subagents.telemetry.otlpEndpoint': receiver.url,
      'subagents.telemetry.recordContent': true,
    });
    expect(receiver.requests).toEqual([]);
    expect(loaded).toEqual([]);
    expect(result.stderr).toMatch(
      /"subagents\.telemetry\.otlpEndpoint" in .*settings\.json is ignored: it decides where traces of your runs are sent/,
    );
  });

  it('a bad endpoint is refused before anything runs (exit 2), saying what it takes', async () => {
    await put(ws, '.vscode/settings.json', {});
    const result = await startCli(build.cli, ws, ['run', '--model', 'scripted:script.json', '--otlp-endpoint', 'ftp://x', 'hi']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/subagents\.telemetry\.otlpEndpoint.*an http or https URL/);
  });
});
