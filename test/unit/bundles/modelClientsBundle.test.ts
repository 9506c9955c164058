import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { vscodeStandInSource } from '../../../scripts/vscodeStandIn.mjs';
import { buildBesideEngine, runNode } from './besideEngine';

// The vendors' model clients (dist/modelClients.js, loaded on a vendor model's first call) take zod
// from the bundle that loads them instead of carrying a copy of their own (zodFromHost.test.ts).
// Built with the production options beside engine.js, then loaded in a fresh node process, a real
// model call included (a node:http server answering as an OpenAI-compatible one, whose answer the
// client parses with zod).

let dir: string;

beforeAll(async () => {
  ({ dir } = await buildBesideEngine(['modelClients']));
}, 60_000);

afterAll(() => rm(dir, { recursive: true, force: true }));

describe("the vendors' model clients bundle", () => {
  it("calls a model with engine.js's zod, parsing the server's answer", () => {
    const answer = {
      id: 'c1',
      created: 1,
      model: 'm',
      choices: [{ index: 0, message: { role: 'assistant', content: 'hello from the server' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 },
    };
    const r = runNode(`${vscodeStandInSource(process.cwd())}
require(${JSON.stringify(join(dir, 'engine.js'))});
const { createOpenAICompatible } = require(${JSON.stringify(join(dir, 'modelClients.js'))});
const server = require('node:http').createServer((req, res) => {
  req.resume();
  req.on('end', () => { res.setHeader('content-type', 'application/json'); res.end(${JSON.stringify(JSON.stringify(answer))}); });
});
server.listen(0, '127.0.0.1', async () => {
  try {
    const model = createOpenAICompatible({ name: 'local', baseURL: 'http://127.0.0.1:' + server.address().port + '/v1' }).chatModel('m');
    const result = await model.doGenerate({ prompt: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] });
    process.stdout.write(JSON.stringify({ content: result.content, output: result.usage.outputTokens }));
  } finally {
    server.close();
  }
});`);
    expect(r.stderr).toBe('');
    const printed = JSON.parse(r.stdout) as { content: { type: string; text: string }[]; output: unknown };
    expect(printed.content).toEqual([{ type: 'text', text: 'hello from the server' }]);
    expect(printed.output).toMatchObject({ total: 4 });
  });
});
