import { randomUUID } from 'node:crypto';
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  buildCliInto,
  cleanup,
  finished,
  fixtureLog,
  fixtureServer,
  FIXTURE,
  processesTagged,
  put,
  startCli,
  warnings,
  workspace,
} from './mcpHarness';

// Real CLI runs against a real MCP server process (test/fixtures/mcp/fixtureServer.mjs, written
// with the SDK's server classes), over stdio and over Streamable HTTP on 127.0.0.1.
vi.setConfig({ testTimeout: 90_000 });

let build: { dir: string; cli: string };
let ws: string;
let tag: string;

beforeAll(async () => {
  build = await buildCliInto();
}, 90_000);
afterAll(() => cleanup(build.dir));
beforeEach(async () => {
  ws = await workspace();
  tag = randomUUID();
  return () => cleanup(ws);
});

const script = (agents: Record<string, unknown[]>) => put(ws, 's.json', { agents });
const calls = (...toolCalls: [string, unknown][]) => ({ toolCalls: toolCalls.map(([tool, input]) => ({ tool, input })) });
const run = (args: string[], env?: Record<string, string>) =>
  startCli(build.cli, ws, ['run', '--json', '--model', 'scripted:s.json', ...args, 'go'], env);

describe('MCP servers over stdio in the CLI', () => {
  it('gives the supervisor the tools: text back as text, isError as an error, images and resources summarised, the non-read-only tool asks', async () => {
    await put(ws, '.mcp.json', { mcpServers: { fx: fixtureServer(tag) } });
    await script({
      supervisor: [
        calls(['mcp__fx__echo', { text: 'hi' }], ['mcp__fx__fail', {}], ['mcp__fx__picture', {}], ['mcp__fx__write_note', { note: 'n' }]),
        { text: 'done' },
      ],
    });
    const r = await run(['--allow-mcp', 'fx']);
    expect(r.code, r.stderr).toBe(0);
    const echo = finished(r.events, 'mcp__fx__echo')[0]!;
    expect(echo.isError).toBe(false);
    expect(String(echo.output)).toContain('echo: hi');
    // The server's words are marked as data, not instructions.
    expect(String(echo.output)).toMatch(/<<<mcp-result [0-9a-f]+>>>/);
    const fail = finished(r.events, 'mcp__fx__fail')[0]!;
    expect(fail.isError).toBe(true);
    expect(JSON.stringify(fail.output)).toContain('failed on purpose');
    const picture = String(finished(r.events, 'mcp__fx__picture')[0]!.output);
    expect(picture).toContain('[image (image/png, ');
    expect(picture).toContain('[resource file:///notes.txt (text/plain, 20 characters): not shown here]');
    expect(picture).not.toContain('secret resource text');
    // write_note has no readOnlyHint: it asks (no terminal here, so it is denied), with the destructive hint in the reason.
    const asked = r.events.find((e) => e.kind === 'approval.requested' && e.tool === 'mcp__fx__write_note');
    expect(asked && asked.kind === 'approval.requested' && asked.reason).toContain('marks it destructive');
    expect(finished(r.events, 'mcp__fx__write_note')[0]!.isError).toBe(true);
    expect(fixtureLog(ws)).not.toContain('call write_note n');
    // No process is left once the CLI has exited.
    expect(fixtureLog(ws).filter((l) => l.startsWith('started'))).toHaveLength(1);
    expect(processesTagged(tag)).toEqual([]);
  });

  it('starts a workspace server only when approved: without --allow-mcp it is not started and the run goes on', async () => {
    await put(ws, '.vscode/mcp.json', { servers: { fx: { type: 'stdio', ...fixtureServer(tag) } } });
    await script({ supervisor: [calls(['mcp__fx__echo', { text: 'hi' }]), { text: 'done' }] });
    const r = await run([]);
    expect(r.code, r.stderr).toBe(0);
    const ask = r.events.find((e) => e.kind === 'approval.requested' && e.tool === 'mcp_server');
    expect(ask && ask.kind === 'approval.requested' && ask.reason).toContain('.vscode/mcp.json declares the MCP server "fx"');
    expect(
      warnings(r.events)
        .map((w) => w.message)
        .join('\n'),
    ).toContain('--allow-mcp fx');
    expect(finished(r.events, 'mcp__fx__echo')[0]!.isError).toBe(true);
    expect(fixtureLog(ws)).toEqual([]);
  });

  it("matches profiles: an allowlist names one tool, a wildcard all of them, disallowedTools takes the server out; a child's write asks on its own node", async () => {
    await put(ws, '.vscode/settings.json', { 'subagents.mcpServers': { fx: fixtureServer(tag) } });
    await put(ws, '.vscode/agents/reader.md', '---\ndescription: reads\ntools: [read_file, mcp__fx__echo]\n---\nRead.');
    await put(ws, '.vscode/agents/writer.md', '---\ndescription: writes\ntools: [mcp__fx__*]\n---\nWrite.');
    await put(ws, '.vscode/agents/plain.md', '---\ndescription: no mcp\ndisallowedTools: [mcp__fx__*]\n---\nPlain.');
    await script({
      supervisor: [calls(['delegate_task', { task: 'work', agents: ['reader', 'writer', 'plain'] }]), { text: 'done' }],
      reader: [calls(['mcp__fx__echo', { text: 'r' }], ['mcp__fx__write_note', { note: 'r' }]), { text: 'r done' }],
      writer: [calls(['mcp__fx__write_note', { note: 'w' }]), { text: 'w done' }],
      plain: [calls(['mcp__fx__echo', { text: 'p' }]), { text: 'p done' }],
    });
    const r = await run(['--allow-mcp', 'fx']);
    expect(r.code, r.stderr).toBe(0);
    const runOf = new Map(r.events.flatMap((e) => (e.kind === 'run.started' ? [[e.runId, e.agent] as const] : [])));
    const byAgent = (tool: string) => Object.fromEntries(finished(r.events, tool).map((e) => [runOf.get(e.runId), e]));
    expect(byAgent('mcp__fx__echo')['reader']!.isError).toBe(false);
    // Not in the reader's list: the model never had it, so the call fails as an unknown tool and nothing runs.
    expect(byAgent('mcp__fx__write_note')['reader']!.isError).toBe(true);
    expect(byAgent('mcp__fx__echo')['plain']!.isError).toBe(true);
    const writerAsk = r.events.find((e) => e.kind === 'approval.requested' && e.tool === 'mcp__fx__write_note');
    expect(writerAsk && runOf.get(writerAsk.runId)).toBe('writer');
    expect(fixtureLog(ws).filter((l) => l === 'call echo')).toHaveLength(1);
    // One server for the whole process, shared by the children.
    expect(fixtureLog(ws).filter((l) => l.startsWith('started'))).toHaveLength(1);
  });

  it('restarts a crashed server once, then gives up with a clear error', async () => {
    await put(ws, '.mcp.json', { mcpServers: { fx: fixtureServer(tag) } });
    const step = (tool: string, input: unknown = {}) => calls([tool, input]);
    await script({
      supervisor: [
        step('mcp__fx__crash'),
        step('mcp__fx__echo', { text: 'again' }),
        step('mcp__fx__crash'),
        step('mcp__fx__echo', { text: 'no' }),
        { text: 'done' },
      ],
    });
    const r = await run(['--allow-mcp', 'fx']);
    expect(r.code, r.stderr).toBe(0);
    const [crash1, crash2] = finished(r.events, 'mcp__fx__crash');
    expect(JSON.stringify(crash1!.output)).toContain('stopped during the call');
    expect(JSON.stringify(crash1!.output)).toContain('restarted once');
    const [echo1, echo2] = finished(r.events, 'mcp__fx__echo');
    expect(String(echo1!.output)).toContain('echo: again');
    expect(crash2!.isError).toBe(true);
    expect(echo2!.isError).toBe(true);
    expect(JSON.stringify(echo2!.output)).toContain('stopped twice');
    expect(fixtureLog(ws).filter((l) => l.startsWith('started'))).toHaveLength(2);
    expect(processesTagged(tag)).toEqual([]);
  });

  it('says plainly when a server cannot start (it exits, or never answers), and the run goes on without its tools', async () => {
    await put(ws, '.mcp.json', {
      mcpServers: {
        broken: fixtureServer(tag, '--exit-at-start'),
        hang: fixtureServer(tag, '--hang'),
        missing: { command: 'no-such-mcp-server-here' },
      },
    });
    await script({ supervisor: [{ text: 'still here' }] });
    // Long enough for the broken server to load the SDK and exit on a loaded machine, so it is its
    // own error that is said (at 1.5 s, under a load of 16, it was still loading and timed out too).
    const r = await run(['--allow-mcp', 'broken', '--allow-mcp', 'hang', '--allow-mcp', 'missing'], { MCP_TIMEOUT: '8000' });
    expect(r.code, r.stderr).toBe(0);
    const said = warnings(r.events)
      .filter((w) => w.code === 'mcp')
      .map((w) => w.message);
    expect(said.find((m) => m.startsWith('MCP server `broken` could not start'))).toContain('FIXTURE_CONFIG is missing');
    expect(said.find((m) => m.startsWith('MCP server `hang` could not start'))).toContain('did not answer within 8000 ms');
    expect(said.find((m) => m.startsWith('MCP server `missing` could not start'))).toMatch(/ENOENT|command not found/);
    expect(r.events.at(-1)).toMatchObject({ kind: 'run.finished', status: 'ok', output: 'still here' });
    expect(processesTagged(tag)).toEqual([]);
  });

  it('cancels a running tool call on Ctrl+C: the server is told, and nothing is left running', async () => {
    await put(ws, '.mcp.json', { mcpServers: { fx: fixtureServer(tag) } });
    await script({ supervisor: [calls(['mcp__fx__sleep', { ms: 60_000 }]), { text: 'done' }] });
    let sent = false;
    const r = await startCli(build.cli, ws, ['run', '--json', '--model', 'scripted:s.json', '--allow-mcp', 'fx', 'go'], {}, (e, child) => {
      if (!sent && e.kind === 'tool.started' && e.tool === 'mcp__fx__sleep') {
        sent = true;
        // The call is on its way once it started; the server notes it when it arrives.
        const poll = setInterval(() => {
          if (fixtureLog(ws).includes('call sleep')) {
            clearInterval(poll);
            child.kill('SIGINT');
          }
        }, 20);
      }
    });
    expect(r.code, r.stderr).toBe(130);
    expect(fixtureLog(ws)).toContain('cancelled sleep');
    expect(processesTagged(tag)).toEqual([]);
  });

  it("starts a profile's own servers (Claude Code's mcpServers field) only for that profile's runs", async () => {
    await put(
      ws,
      '.claude/agents/helper.md',
      `---\nname: helper\ndescription: helps\ntools: mcp__own__echo\nmcpServers:\n  own:\n    command: ${JSON.stringify(process.execPath)}\n    args: [${JSON.stringify(FIXTURE)}, "--tag=${tag}"]\n---\nHelp.`,
    );
    await script({
      supervisor: [
        calls(['mcp__own__echo', { text: 'sup' }]),
        calls(['delegate_task', { task: 't', agents: ['helper'] }]),
        { text: 'done' },
      ],
      helper: [calls(['mcp__own__echo', { text: 'helper' }]), { text: 'h done' }],
    });
    const r = await run(['--allow-mcp', 'own']);
    expect(r.code, r.stderr).toBe(0);
    const [fromSupervisor, fromHelper] = finished(r.events, 'mcp__own__echo');
    expect(fromSupervisor!.isError).toBe(true);
    expect(String(fromHelper!.output)).toContain('echo: helper');
    expect(processesTagged(tag)).toEqual([]);
  });
});

describe('MCP servers over Streamable HTTP in the CLI', () => {
  it('calls the tools of a server on 127.0.0.1', async () => {
    const server = spawn(process.execPath, [FIXTURE, '--http', `--tag=${tag}`], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const port = await new Promise<string>((resolve) =>
        server.stdout.on('data', (d: Buffer) => /listening (\d+)/.exec(d.toString()) && resolve(/listening (\d+)/.exec(d.toString())![1]!)),
      );
      await put(ws, '.vscode/settings.json', {
        'subagents.mcpServers': { web: { url: `http://127.0.0.1:${port}/mcp`, headers: { Authorization: 'Bearer ${env:FIXTURE_TOKEN}' } } },
      });
      await script({ supervisor: [calls(['mcp__web__echo', { text: 'over http' }], ['mcp__web__fail', {}]), { text: 'done' }] });
      const r = await run(['--allow-mcp', 'web'], { FIXTURE_TOKEN: 'token-from-env' });
      expect(r.code, r.stderr).toBe(0);
      expect(String(finished(r.events, 'mcp__web__echo')[0]!.output)).toContain('echo: over http');
      expect(finished(r.events, 'mcp__web__fail')[0]!.isError).toBe(true);
      // The token came from the environment and appears in no event.
      expect(r.stdout).not.toContain('token-from-env');
    } finally {
      server.kill();
    }
  });

  it('falls back to SSE for a server that only speaks it', async () => {
    const server = spawn(process.execPath, [FIXTURE, '--sse', `--tag=${tag}`], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const port = await new Promise<string>((resolve) =>
        server.stdout.on('data', (d: Buffer) => /listening (\d+)/.exec(d.toString()) && resolve(/listening (\d+)/.exec(d.toString())![1]!)),
      );
      await put(ws, '.vscode/settings.json', { 'subagents.mcpServers': { old: { url: `http://127.0.0.1:${port}/sse` } } });
      await script({ supervisor: [calls(['mcp__old__echo', { text: 'over sse' }]), { text: 'done' }] });
      const r = await run(['--allow-mcp', 'old'], { SUBAGENTS_DEBUG: '1' });
      expect(r.code, r.stderr).toBe(0);
      expect(String(finished(r.events, 'mcp__old__echo')[0]!.output)).toContain('echo: over sse');
      expect(r.stderr).toMatch(/MCP server "old" \(.*settings\.json\) started in \d+ ms over SSE/);
    } finally {
      server.kill();
    }
  });

  it('names a variable that is not set', async () => {
    await put(ws, '.vscode/settings.json', {
      'subagents.mcpServers': { web: { url: 'http://127.0.0.1:9/mcp', headers: { Authorization: 'Bearer ${env:FIXTURE_TOKEN_UNSET}' } } },
    });
    await script({ supervisor: [{ text: 'done' }] });
    const r = await run(['--allow-mcp', 'web']);
    expect(r.code, r.stderr).toBe(0);
    expect(
      warnings(r.events)
        .map((w) => w.message)
        .join('\n'),
    ).toContain('the environment variable FIXTURE_TOKEN_UNSET is not set');
  });
});
