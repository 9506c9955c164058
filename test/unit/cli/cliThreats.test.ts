import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildCli } from '../../../scripts/bundles.mjs';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startChatServer, textReply, toolCallReply } from '../fakes/openAiServer';

// Issue 9's attacks through the real CLI, built from the current sources (as cli.test.ts does).
// A process that hangs is killed by the guard below, so a regression fails here instead of hanging.
vi.setConfig({ testTimeout: 60_000 });
const GUARD_MS = 30_000;

let buildDir: string;
let cli: string;
let ws: string;

beforeAll(async () => {
  buildDir = await mkdtemp(join(tmpdir(), 'cli-threats-build-'));
  cli = join(buildDir, 'cli.js');
  await buildCli(buildDir);
}, 60_000);
afterAll(() => rm(buildDir, { recursive: true, force: true }));
beforeEach(async () => {
  ws = await mkdtemp(join(tmpdir(), 'cli-threats-ws-'));
  return () => rm(ws, { recursive: true, force: true });
});

interface Result {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function start(
  args: string[],
  options: { env?: NodeJS.ProcessEnv; onStderr?: (text: string, child: ReturnType<typeof spawn>) => void } = {},
) {
  // The test's own HOME: nothing of the machine's ~/.claude or ~/.cache is read or written.
  const env = { ...process.env, OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '', SUBAGENTS_API_KEY: '', HOME: join(ws, '.home'), ...options.env };
  const child = spawn(process.execPath, [cli, ...args], { cwd: ws, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const guard = setTimeout(() => child.kill('SIGKILL'), GUARD_MS);
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
    options.onStderr?.(stderr, child);
  });
  return new Promise<Result>((resolve) =>
    child.on('close', (code, signal) => {
      clearTimeout(guard);
      resolve({ code, signal, stdout, stderr });
    }),
  );
}

async function script(agents: Record<string, unknown[]>): Promise<void> {
  await writeFile(join(ws, 'script.json'), JSON.stringify({ agents }));
}

// Ripgrep (linear time) finds the '!' on the long line, so the file reaches the JavaScript matcher, which backtracks on the first branch without end.
const EVIL_PATTERN = '(a+)+$|!';

describe('nothing hangs the CLI', () => {
  beforeEach(async () => {
    await writeFile(join(ws, 'long-line.txt'), `${'a'.repeat(5000)}!\n`);
  });

  it('search_text with a pattern that backtracks without end returns a timeout error, and the run goes on', async () => {
    await script({
      supervisor: [{ toolCalls: [{ tool: 'search_text', input: { pattern: EVIL_PATTERN, timeoutMs: 500 } }] }, { text: 'went on' }],
    });
    const r = await start(['run', '--model', 'scripted:script.json', 'search']);
    expect(r.signal).toBeNull();
    expect(r.code).toBe(0);
    expect(r.stderr, r.stderr).toMatch(/Searched for \(a\+\)\+\$\|! .*· failed: .*search_text stopped after 500 ms/);
    expect(r.stdout).toContain('went on');
  });

  it('Ctrl+C ends such a search at once: the run is cancelled and the CLI exits 130', async () => {
    await script({
      supervisor: [{ toolCalls: [{ tool: 'search_text', input: { pattern: EVIL_PATTERN, timeoutMs: 60_000 } }] }, { text: 'never' }],
    });
    let sent = false;
    const r = await start(['run', '--model', 'scripted:script.json', 'search'], {
      onStderr: (stderr, child) => {
        // Interrupt once the search has started: an event, not a guess at timing.
        if (!sent && stderr.includes('Searching for')) {
          sent = true;
          child.kill('SIGINT');
        }
      },
    });
    expect(r.signal).toBeNull();
    expect(r.code).toBe(130);
    expect(r.stderr).toMatch(/cancelled/);
  });
});

describe('secrets never leave the CLI', () => {
  const KEY = 'sk-cli-canary-8e41b07c2d';

  it('a provider echoing the Authorization header, a file and the answer: no key in the output, the threads, show or export', async () => {
    await writeFile(join(ws, 'notes.txt'), `token ${KEY}\n`);
    const server = await startChatServer([
      toolCallReply('c1', 'read_file', ['{"path":"notes.txt"}']),
      (request) => ({
        status: 503,
        message: `overloaded; retry with ${request.headers.authorization}`,
        headers: { 'retry-after-ms': '5' },
      }),
      textReply(['It says ', KEY.slice(0, 12), KEY.slice(12)]),
      (request) => ({ status: 400, message: `rejected ${request.headers.authorization}` }),
    ]);
    try {
      const env = { SUBAGENTS_API_KEY: KEY };
      const model = `openai-compatible:${server.baseURL}#m`;
      const text = await start(['run', '--model', model, 'read the notes'], { env });
      const thread = /thread (t_\w+)/.exec(text.stderr)?.[1] ?? '';
      const json = await start(['run', '--json', '--model', model, '--thread', thread, 'again'], { env });
      const show = await start(['threads', 'show', thread], { env });
      const exported = await start(['threads', 'export', thread, '--format', 'json'], { env });
      const markdown = await start(['threads', 'export', thread], { env });
      expect(server.requests.map((r) => r.headers.authorization)).toEqual(Array(4).fill(`Bearer ${KEY}`));
      expect(text.code).toBe(0);
      expect(text.stdout).toContain('It says [redacted SUBAGENTS_API_KEY]');
      expect(text.stderr).toMatch(/overloaded; retry with Bearer \[redacted SUBAGENTS_API_KEY\]/);
      expect(json.code).toBe(1);
      expect(json.stdout).toMatch(/"error":"[^"]*rejected Bearer \[redacted SUBAGENTS_API_KEY\]/);
      expect(show.stdout).toContain('[redacted SUBAGENTS_API_KEY]');
      const dir = join(ws, '.subagents', 'threads');
      const files = (await readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile());
      expect(files.map((e) => e.name)).toContain('index.json');
      const stored = (await Promise.all(files.map((e) => readFile(join(e.parentPath, e.name), 'utf8')))).join('\n');
      const places = { text, json, show, exported, markdown };
      for (const [name, r] of Object.entries(places))
        expect(`${r.stdout}${r.stderr}`.includes(KEY), `the key leaked into ${name}`).toBe(false);
      expect(stored.includes(KEY), 'the key leaked into the thread files').toBe(false);
      expect(
        server.requests
          .map((r) => r.raw)
          .join('\n')
          .includes(KEY),
        'the key reached the model',
      ).toBe(false);
    } finally {
      await server.close();
    }
  });
});

describe('workspace settings cannot raise trust in the CLI', () => {
  async function workspaceSettings(values: Record<string, unknown>) {
    await mkdir(join(ws, '.vscode'), { recursive: true });
    await writeFile(join(ws, '.vscode', 'settings.json'), JSON.stringify(values));
  }

  it('approval, autoApproveCommands and the rest in .vscode/settings.json are ignored with a notice; the flags count', async () => {
    await workspaceSettings({
      'subagents.approval': 'trust',
      'subagents.autoApproveCommands': ['echo'],
      'subagents.trustedDomains': ['evil.example'],
      'subagents.sandbox.mode': 'off',
      'subagents.commandEnv.exclude': ['X'],
    });
    await script({
      supervisor: [
        {
          toolCalls: [
            { tool: 'write_file', input: { path: 'marker.txt', content: 'x' } },
            { tool: 'run_command', input: { command: 'echo ran > ran.txt' } },
          ],
        },
        { text: 'done' },
      ],
    });
    const before = await readFile(join(ws, '.vscode', 'settings.json'), 'utf8');
    const r = await start(['run', '--model', 'scripted:script.json', 'go']);
    expect(r.code).toBe(0);
    for (const setting of ['approval', 'autoApproveCommands', 'trustedDomains', 'sandbox.mode', 'commandEnv.exclude']) {
      expect(r.stderr).toContain(`"subagents.${setting}" in ${join(ws, '.vscode', 'settings.json')} is ignored`);
    }
    // Nobody at a terminal, approval "ask": both are denied; nothing was written.
    expect(r.stderr).toMatch(/not run: write_file/);
    expect(r.stderr).toMatch(/not run: run_command/);
    expect(existsSync(join(ws, 'marker.txt'))).toBe(false);
    expect(existsSync(join(ws, 'ran.txt'))).toBe(false);
    expect(await readFile(join(ws, '.vscode', 'settings.json'), 'utf8')).toBe(before);

    const flagged = await start(['run', '--model', 'scripted:script.json', '--approval', 'autoEdit', '--allow-command', 'echo', 'go']);
    expect(flagged.code).toBe(0);
    expect(await readFile(join(ws, 'marker.txt'), 'utf8')).toBe('x');
    expect(await readFile(join(ws, 'ran.txt'), 'utf8')).toBe('ran\n');
  });

  it('a bad trust flag is bad usage', async () => {
    const r = await start(['run', '--model', 'scripted:script.json', '--sandbox', 'sometimes', 'go']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/subagents\.sandbox\.mode" in the command line is invalid/);
    const origin = await start(['run', '--model', 'scripted:script.json', '--allow-key-for', 'not a url', 'go']);
    expect(origin.code).toBe(2);
    expect(origin.stderr).toContain('--allow-key-for takes an origin');
  });
});

describe('a key is sent only to a server the user chose', () => {
  const KEY = 'sk-origin-canary-3b7d90e1f4';

  it('a workspace model spec pointing at a recording server gets no key, until --allow-key-for names it', async () => {
    const server = await startChatServer([textReply(['hello']), textReply(['hello']), textReply(['hello'])]);
    try {
      const origin = new URL(server.baseURL).origin;
      await mkdir(join(ws, '.vscode'));
      await writeFile(join(ws, '.vscode', 'settings.json'), JSON.stringify({ 'subagents.model': `openai-compatible:${server.baseURL}#m` }));
      const env = { SUBAGENTS_API_KEY: KEY };
      const attacked = await start(['run', 'hi'], { env });
      expect(attacked.code).toBe(0);
      expect(server.requests).toHaveLength(1);
      expect(server.requests[0]!.headers.authorization).toBeUndefined();
      expect(attacked.stderr).toContain(`SUBAGENTS_API_KEY was not sent to ${origin}: the workspace chose that server`);
      expect(attacked.stderr).toContain(`--allow-key-for ${origin}`);

      const allowed = await start(['run', '--allow-key-for', origin, 'hi'], { env });
      expect(allowed.code).toBe(0);
      expect(server.requests[1]!.headers.authorization).toBe(`Bearer ${KEY}`);
      // The user's own --model names the server: its key goes there.
      const named = await start(['run', '--model', `openai-compatible:${server.baseURL}#m`, 'hi'], { env });
      expect(named.code).toBe(0);
      expect(server.requests[2]!.headers.authorization).toBe(`Bearer ${KEY}`);
    } finally {
      await server.close();
    }
  });
});

describe('terminal control sequences from models and tools are not printed in text mode', () => {
  const ESC = '\u001b';
  const nasty = [
    `${ESC}]0;pwned title\u0007`, // OSC 0: the window title
    `${ESC}]52;c;cm0gLXJmIH4=\u0007`, // OSC 52: the clipboard
    `${ESC}[2J${ESC}[H`, // CSI: clear the screen, cursor home
    '\u009b31m', // CSI in its one-byte C1 form
    `${ESC}P1$qm${ESC}\\`, // DCS
    '\u0007\b\r', // BEL, backspace, carriage return
  ].join('');
  const controls = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

  it('strips OSC, CSI and other controls from the answer, tool names and errors, and from threads show and export', async () => {
    await script({
      supervisor: [{ text: `Hello ${nasty}world`, toolCalls: [{ tool: `evil${ESC}]0;x\u0007`, input: {} }] }, { text: `\nbye${nasty}` }],
    });
    const r = await start(['run', '--model', 'scripted:script.json', 'go']);
    expect(r.code).toBe(0);
    // The text around them stays (a sequence the stream split may leave its harmless body behind).
    expect(r.stdout).toMatch(/^Hello .*world/);
    expect(r.stdout).toContain('bye');
    expect(r.stderr).toContain('[supervisor] evil · failed: AI_NoSuchToolError');
    const thread = /thread (t_\w+)/.exec(r.stderr)?.[1] ?? '';
    const show = await start(['threads', 'show', thread]);
    const markdown = await start(['threads', 'export', thread]);
    const list = await start(['threads', 'list']);
    for (const [name, out] of Object.entries({ run: r, show, markdown, list })) {
      expect(
        controls.test(`${out.stdout}${out.stderr}`.replace(/[\n\t]/g, '')),
        `a control character reached the terminal in ${name}`,
      ).toBe(false);
    }
    // The JSON output keeps the text as it was, escaped.
    const exported = await start(['threads', 'export', thread, '--format', 'json']);
    expect(exported.stdout).toContain('\\u001b]52;c;');
  });
});
