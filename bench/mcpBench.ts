import { spawn } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DEFAULT_SETTINGS } from '../src/core/config/settings/engineSettings';
import type { McpServerDecl } from '../src/core/config/mcp/mcpDeclarations';
import { McpHub } from '../src/core/tools/mcp/mcpHub';
import { commandLauncher } from '../src/core/access/sandbox/commandLauncher';
import { htmlToMarkdown } from '../src/core/tools/web/htmlToMarkdown';
import { formatMs, summarize } from './stats';

const FIXTURE = resolve('test/fixtures/mcp/fixtureServer.mjs');

/**
 * `npm run bench`'s MCP figures, with the test fixture server (the SDK's own server classes): the
 * time from a run asking for a server to its tool list (spawn, initialize, tools/list), plain and
 * in the OS sandbox, and over Streamable HTTP; one tool call; and stopAll, as a window or the CLI
 * does on exit. Also web_fetch's HTML conversion of a large page.
 */
export async function mcpBench(runs = 10): Promise<string[]> {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'subagents-bench-mcp-')));
  const lines: string[] = [];
  try {
    for (const mode of ['off', 'on'] as const) {
      const settings = { ...DEFAULT_SETTINGS, 'sandbox.mode': mode };
      const state = await commandLauncher(root, settings, () => {}).state();
      if (state.refusal) {
        lines.push(`MCP stdio server in the sandbox: not measured (${state.refusal})`);
        continue;
      }
      const decl: McpServerDecl = {
        name: 'fx',
        origin: 'user',
        source: 'bench',
        bareNames: false,
        config: { transport: 'stdio', command: process.execPath, args: [FIXTURE], env: {} },
      };
      lines.push(...(await measure(`stdio${state.sandboxed ? ', in the OS sandbox' : ', plain'}`, decl, settings, root, runs)));
    }
    const http = spawn(process.execPath, [FIXTURE, '--http'], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      const port = await new Promise<string>((ok) =>
        http.stdout.on('data', (d: Buffer) => {
          const m = /listening (\d+)/.exec(d.toString());
          if (m) ok(m[1]!);
        }),
      );
      const decl: McpServerDecl = {
        name: 'web',
        origin: 'user',
        source: 'bench',
        bareNames: false,
        config: { transport: 'http', url: `http://127.0.0.1:${port}/mcp`, headers: {} },
      };
      lines.push(...(await measure('Streamable HTTP on 127.0.0.1', decl, DEFAULT_SETTINGS, root, runs)));
    } finally {
      http.kill();
    }
    const page = `<html><head><title>t</title><script>${'x'.repeat(10_000)}</script></head><body>${'<h2>Section</h2><p>Some <b>text</b> with <a href="/l">a link</a>.</p><ul><li>a</li><li>b</li></ul>'.repeat(2000)}</body></html>`;
    const samples: number[] = [];
    for (let i = 0; i < runs + 2; i++) {
      const start = performance.now();
      htmlToMarkdown(page);
      if (i >= 2) samples.push(performance.now() - start);
    }
    lines.push(
      `web_fetch HTML to Markdown, a ${Math.round(page.length / 1024)} KB page: ${formatMs(summarize(samples))} over ${runs} runs`,
    );
    return lines;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

async function measure(
  label: string,
  decl: McpServerDecl,
  settings: typeof DEFAULT_SETTINGS,
  root: string,
  runs: number,
): Promise<string[]> {
  const starts: number[] = [];
  const calls: number[] = [];
  const stops: number[] = [];
  for (let i = 0; i < runs + 1; i++) {
    const hub = new McpHub({ root, declarations: () => ({ servers: [decl], problems: [] }) });
    const t0 = performance.now();
    const live = await hub.server(decl, settings, () => {});
    const t1 = performance.now();
    await hub.call(live, 'echo', { text: 'hi' }, new AbortController().signal, settings);
    const t2 = performance.now();
    await hub.stopAll();
    const t3 = performance.now();
    // The first run loads the client bundle (and, for the sandbox, starts sandbox-runtime): not counted.
    if (i === 0) continue;
    starts.push(t1 - t0);
    calls.push(t2 - t1);
    stops.push(t3 - t2);
  }
  return [
    `MCP server start (${label}): spawn or connect, initialize, tools/list: ${formatMs(summarize(starts))} over ${runs} runs`,
    `MCP tool call (${label}), echo: ${formatMs(summarize(calls))}; stopAll: ${formatMs(summarize(stops))}`,
  ];
}
