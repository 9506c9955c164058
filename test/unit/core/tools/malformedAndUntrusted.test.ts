import type { LanguageModelV4CallOptions, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { MockLanguageModelV4 } from 'ai/test';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeEngine } from '../engineHarness';
import { makeWorld, RecordingApprover, runScript, snapshot, spyWorkspace, supervisorCalls } from './toolWorld';

let world: Awaited<ReturnType<typeof makeWorld>>;
beforeEach(async () => {
  world = await makeWorld();
  await writeFile(join(world.root, 'README.md'), 'hello\n');
});
afterEach(() => world.cleanup());

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};
const streamOf = (parts: LanguageModelV4StreamPart[]) => ({
  stream: new ReadableStream<LanguageModelV4StreamPart>({
    start(controller) {
      for (const p of parts) controller.enqueue(p);
      controller.close();
    },
  }),
});

describe('a tool call with malformed JSON arguments', () => {
  it('is returned to the model as an error and never run', async () => {
    const model = new MockLanguageModelV4({
      doStream: [
        streamOf([
          { type: 'stream-start', warnings: [] },
          { type: 'tool-call', toolCallId: 'bad1', toolName: 'write_file', input: '{"path": "pwned.txt", "content": "x' },
          { type: 'finish', usage, finishReason: { unified: 'tool-calls', raw: 'tool_calls' } },
        ]),
        streamOf([
          { type: 'stream-start', warnings: [] },
          { type: 'text-start', id: 't' },
          { type: 'text-delta', id: 't', delta: 'sorry' },
          { type: 'text-end', id: 't' },
          { type: 'finish', usage, finishReason: { unified: 'stop', raw: 'stop' } },
        ]),
      ],
    });
    const approver = new RecordingApprover(() => 'approved');
    const h = makeEngine(
      { agents: {} },
      { model: () => model, workspace: spyWorkspace(world.root).workspace, approver, settings: { approval: 'trust' } },
    );
    const { done } = await h.engine.send({ prompt: 'go' });
    expect((await done).status).toBe('ok');
    const call = h.runs()[0]!.toolCalls[0]!;
    expect(call).toMatchObject({ toolCallId: 'bad1', tool: 'write_file', state: 'error' });
    expect(String(call.output)).toMatch(/Invalid input for tool write_file/);
    // The model's second call carries the error as the tool's result.
    const second = model.doStreamCalls[1] as LanguageModelV4CallOptions;
    const toolMessage = second.prompt.find((m) => m.role === 'tool');
    expect(JSON.stringify(toolMessage)).toMatch(/error-text/);
    expect(approver.requests).toEqual([]);
    expect(await snapshot(world.root)).toEqual({ 'README.md': 'hello\n' });
  });
});

describe('an untrusted workspace', () => {
  it('hides write, exec and install tools and refuses forged calls to them; reads still work', async () => {
    const before = await snapshot(world.base);
    const approver = new RecordingApprover(() => 'approved');
    const r = await runScript(
      supervisorCalls(
        { tool: 'write_file', input: { path: 'x.txt', content: 'x' } },
        { tool: 'edit_file', input: { path: 'README.md', oldText: 'hello', newText: 'pwned' } },
        { tool: 'run_command', input: { command: 'touch pwned' } },
        { tool: 'install_package', input: { manager: 'npm', name: 'left-pad' } },
        { tool: 'read_file', input: { path: 'README.md' } },
      ),
      { root: world.root, approver, settings: { approval: 'trust' }, trusted: false },
    );
    for (const tool of ['write_file', 'edit_file', 'run_command', 'install_package']) {
      expect((r.toolResults(tool)[0] as { error: string }).error).toMatch(/not trusted/);
    }
    expect(r.toolResults('read_file')[0]).toMatchObject({ content: '     1\thello' });
    expect(r.commands).toEqual([]);
    expect(approver.requests).toEqual([]);
    expect(await snapshot(world.base)).toEqual(before);
  });
});
