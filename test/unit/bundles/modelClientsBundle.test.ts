import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleOptions } from '../../../scripts/bundles.mjs';
import { vscodeStandInSource } from '../../../scripts/vscodeStandIn.mjs';

// The vendors' model clients (dist/modelClients.js, loaded on a vendor model's first call) take zod
// from the bundle that loads them instead of carrying a copy of their own. Built with the production
// options beside engine.js, then loaded in fresh node processes, a real model call included (a
// node:http server answering as an OpenAI-compatible one, whose answer the client parses with zod).

let dir: string;
let meta: Metafile;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'model-clients-'));
  const { engine, modelClients } = bundleOptions({ production: true });
  const quiet = { outdir: dir, logLevel: 'error' } as const;
  const [, clients] = await Promise.all([build({ ...engine, ...quiet }), build({ ...modelClients, ...quiet })]);
  meta = clients.metafile!;
}, 60_000);

afterAll(() => rm(dir, { recursive: true, force: true }));

function node(code: string): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, ['-e', code], { encoding: 'utf8', timeout: 30_000 });
}

describe("the vendors' model clients bundle", () => {
  it('carries no zod of its own', () => {
    const inputs = Object.keys(meta.inputs);
    expect(inputs.some((f) => f.includes('node_modules/@ai-sdk/openai-compatible/'))).toBe(true);
    expect(inputs.filter((f) => f.includes('node_modules/zod/'))).toEqual([]);
  });

  it('says what it needs when no bundle of ours loaded zod before it', () => {
    const r = node(`require(${JSON.stringify(join(dir, 'modelClients.js'))});`);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/modelClients\.js takes zod from the bundle that loads it/);
  });

  it("calls a model with engine.js's zod, parsing the server's answer", () => {
    const answer = { id: 'c1', created: 1, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'hello from the server' }, finish_reason: 'stop' }], usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 } };
    const r = node(`${vscodeStandInSource(process.cwd())}
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
