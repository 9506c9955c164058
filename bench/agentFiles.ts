import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { pathToFileURL } from 'node:url';
import {
  createConnection,
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
} from 'vscode-languageserver/node';
import { loadWorkspaceProfiles } from '../src/core/config/profiles/workspaceProfiles';
import { startAgentServer } from '../src/server/agentServer';
import { formatMs, summarize, table } from './stats';

// Agent files at scale (issue "Agent files that just work", item 7): listing generated workspaces
// of 100, 300 and 750 agent files (a third each of Claude Code, Copilot and our own, with tools,
// models and a lenient description among them), the language server's start, and its diagnostic
// refresh of one file in the 750-file workspace. Prints, never asserts.

const CLAUDE = (i: number) =>
  `---\nname: claude-agent-${i}\ndescription: Reviews module ${i}. Triggers on: 'review', 'audit'\ntools: Read, Grep, Glob, Bash, WebFetch\nmodel: sonnet\n---\nYou review module ${i}.\n${'Check every function carefully.\n'.repeat(20)}`;
const COPILOT = (i: number) =>
  `---\nname: 'Copilot Agent ${i}'\ndescription: Plans work on area ${i}\ntools: ['search', 'edit/editFiles', 'execute/runInTerminal', 'github/*']\nmodel: ['GPT-5', 'Claude Sonnet 4.5']\n---\nPlan area ${i}.\n${'Write the plan as a list.\n'.repeat(20)}`;
const NATIVE = (i: number) =>
  `---\ndescription: Tests feature ${i}\ntools: [read_file, search_text, run_command]\nmaxSteps: 20\n---\nYou test feature ${i}.\n${'Run the tests and report.\n'.repeat(20)}`;

/** A workspace of n agent files, a third of each kind. */
export function generatedWorkspace(n: number): string {
  const root = mkdtempSync(join(tmpdir(), `subagents-agents-${n}-`));
  for (const dir of ['.claude/agents', '.github/agents', '.vscode/agents']) mkdirSync(join(root, dir), { recursive: true });
  for (let i = 0; i < n; i++) {
    if (i % 3 === 0) writeFileSync(join(root, '.claude/agents', `agent-${i}.md`), CLAUDE(i));
    else if (i % 3 === 1) writeFileSync(join(root, '.github/agents', `agent-${i}.agent.md`), COPILOT(i));
    else writeFileSync(join(root, '.vscode/agents', `agent-${i}.md`), NATIVE(i));
  }
  return root;
}

const NO_KEYS = { hasKey: () => false, keyHint: () => '' };

function time(run: () => void, runs: number): number[] {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    run();
    samples.push(performance.now() - start);
  }
  return samples;
}

async function inProcessServer(
  root: string,
): Promise<{ client: ProtocolConnection; diagnostics: (uri: string) => Promise<PublishDiagnosticsParams>; initMs: number }> {
  const up = new PassThrough();
  const down = new PassThrough();
  const start = performance.now();
  startAgentServer(createConnection(up, down));
  const client = createProtocolConnection(new StreamMessageReader(down), new StreamMessageWriter(up));
  const waiting = new Map<string, (p: PublishDiagnosticsParams) => void>();
  client.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => {
    waiting.get(p.uri)?.(p);
    waiting.delete(p.uri);
  });
  client.listen();
  const rootUri = pathToFileURL(root).href;
  await client.sendRequest('initialize', {
    processId: null,
    rootUri,
    workspaceFolders: [{ uri: rootUri, name: 'ws' }],
    capabilities: {},
    initializationOptions: { home: join(root, 'no-home') },
  });
  const initMs = performance.now() - start;
  client.sendNotification('initialized', {});
  return { client, initMs, diagnostics: (uri) => new Promise((resolve) => waiting.set(uri, resolve)) };
}

/** dist/server.js as the editor starts it (here over stdio): spawn to the initialize answer. */
async function spawnedStartMs(root: string): Promise<number | undefined> {
  const server = join(process.cwd(), 'dist', 'server.js');
  if (!existsSync(server)) return undefined;
  const start = performance.now();
  const child = spawn(process.execPath, [server, '--stdio'], { stdio: ['pipe', 'pipe', 'ignore'] });
  const client = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  client.listen();
  const rootUri = pathToFileURL(root).href;
  await client.sendRequest('initialize', {
    processId: process.pid,
    rootUri,
    workspaceFolders: [{ uri: rootUri, name: 'ws' }],
    capabilities: {},
    initializationOptions: { home: join(root, 'no-home') },
  });
  const ms = performance.now() - start;
  client.dispose();
  child.kill();
  return ms;
}

export async function agentFilesBench(runs = 15): Promise<string[]> {
  const lines: string[] = [];
  const rows = [['agent files', "list the workspace's profiles", 'per file']];
  const roots: string[] = [];
  try {
    for (const n of [100, 300, 750]) {
      const root = generatedWorkspace(n);
      roots.push(root);
      loadWorkspaceProfiles({ root, trusted: true, models: NO_KEYS });
      const s = summarize(time(() => loadWorkspaceProfiles({ root, trusted: true, models: NO_KEYS }), runs));
      rows.push([String(n), formatMs(s), `${((s.median / n) * 1000).toFixed(0)} µs`]);
    }
    lines.push(
      `Agent files (generated; ${runs} runs, medians (min–max), cold reads from disk each run; budget: 750 files under 200 ms):\n${table(rows)}`,
    );

    const root = roots.at(-1)!;
    const starts: number[] = [];
    for (let i = 0; i < 5; i++) {
      const ms = await spawnedStartMs(root);
      if (ms !== undefined) starts.push(ms);
    }
    const server = await inProcessServer(root);
    const path = join(root, '.vscode/agents', 'agent-2.md');
    const uri = pathToFileURL(path).href;
    let version = 1;
    const text = NATIVE(2);
    const first = server.diagnostics(uri);
    const openAt = performance.now();
    server.client.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'markdown', version, text } });
    await first;
    const firstMs = performance.now() - openAt;
    const latencies: number[] = [];
    for (let i = 0; i < runs * 2; i++) {
      const next = server.diagnostics(uri);
      const edited = i % 2 ? text : text.replace('maxSteps: 20', 'maxStep: 20');
      const at = performance.now();
      server.client.sendNotification('textDocument/didChange', {
        textDocument: { uri, version: ++version },
        contentChanges: [{ text: edited }],
      });
      await next;
      latencies.push(performance.now() - at);
    }
    server.client.dispose();
    lines.push(
      `Agent-file server, 750-file workspace: start ${starts.length ? `${formatMs(summarize(starts))} (dist/server.js spawned to its initialize answer, 5 runs)` : '(dist/server.js missing: run npm run build)'}; ` +
        `in-process initialize ${server.initMs.toFixed(1)} ms; first diagnostics of an opened file ${firstMs.toFixed(1)} ms (reads all 750 files); ` +
        `diagnostic refresh of one edited file ${formatMs(summarize(latencies))} over ${latencies.length} edits (budget: under 20 ms)`,
    );
  } finally {
    for (const r of roots) rmSync(r, { recursive: true, force: true });
  }
  return lines;
}
