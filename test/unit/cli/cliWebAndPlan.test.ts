import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildCliInto, cleanup, finished, put, startCli, workspace } from './mcpHarness';

// web_fetch and todo_write through the real CLI: --trusted-domain, and the plan as a line on stderr.
vi.setConfig({ testTimeout: 90_000 });

let build: { dir: string; cli: string };
let ws: string;
let server: Server;
let port: number;

beforeAll(async () => {
  build = await buildCliInto();
  server = createServer((_req, res) =>
    res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>Local docs</h1><script>steal()</script>'),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
}, 90_000);
afterAll(async () => {
  await cleanup(build.dir);
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
beforeEach(async () => {
  ws = await workspace();
  return () => cleanup(ws);
});

describe('web_fetch in the CLI', () => {
  it('reaches a local server only with --trusted-domain naming it', async () => {
    const url = `http://127.0.0.1:${port}/docs`;
    await put(ws, 's.json', { agents: { supervisor: [{ toolCalls: [{ tool: 'web_fetch', input: { url } }] }, { text: 'done' }] } });
    const refused = await startCli(build.cli, ws, ['run', '--json', '--model', 'scripted:s.json', 'go']);
    expect(refused.code, refused.stderr).toBe(0);
    expect(JSON.stringify(finished(refused.events, 'web_fetch')[0]!.output)).toContain('this machine (loopback)');
    const allowed = await startCli(build.cli, ws, [
      'run',
      '--json',
      '--model',
      'scripted:s.json',
      '--trusted-domain',
      `127.0.0.1:${port}`,
      'go',
    ]);
    const output = finished(allowed.events, 'web_fetch')[0]!.output as { content: string };
    expect(output.content).toContain(`Address: ${url}`);
    expect(output.content).toContain('# Local docs');
    expect(output.content).not.toContain('steal');
    const bad = await startCli(build.cli, ws, ['run', '--model', 'scripted:s.json', '--trusted-domain', 'http://x/', 'go']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('"subagents.trustedDomains" in the command line is invalid');
  });
});

describe('todo_write in the CLI', () => {
  it("prints each agent's plan as a line, children's too", async () => {
    const plan = (items: [string, string][]) => ({
      tool: 'todo_write',
      input: { items: items.map(([text, status]) => ({ text, status })) },
    });
    await put(ws, '.vscode/agents/fixer.md', '---\ndescription: fixes\n---\nFix.');
    await put(ws, 's.json', {
      agents: {
        supervisor: [
          { toolCalls: [plan([['delegate', 'in_progress']])] },
          { toolCalls: [{ tool: 'delegate_task', input: { task: 'fix', agents: ['fixer'] } }] },
          { text: 'done' },
        ],
        fixer: [
          {
            toolCalls: [
              plan([
                ['read', 'done'],
                ['fix', 'in_progress'],
                ['test', 'pending'],
              ]),
            ],
          },
          { text: 'fixed' },
        ],
      },
    });
    const r = await startCli(build.cli, ws, ['run', '--model', 'scripted:s.json', 'go']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('[supervisor] plan 0/1: [~] delegate');
    expect(r.stderr).toContain('[fixer] plan 1/3: [x] read  [~] fix  [ ] test');
  });
});
