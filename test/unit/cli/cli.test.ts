import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildCli } from '../../../scripts/bundles.mjs';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { runEventSchema } from '../../../src/shared/events';
import { leaveLeftoversOfKilledProcess } from '../../fixtures/killedProcessLeftovers';
import type { RunEvent } from '../../../src/shared/events';

// The CLI is built from the current sources with the options esbuild.mjs uses for dist/cli.js,
// into a temp dir, so the test never runs a stale bundle (nor races a build writing dist/).
// Each case spawns several node processes; on a busy machine that takes seconds, not a hang.
vi.setConfig({ testTimeout: 60_000 });

let buildDir: string;
let cli: string;
let ws: string;

beforeAll(async () => {
  buildDir = await mkdtemp(join(tmpdir(), 'cli-build-'));
  cli = join(buildDir, 'cli.js');
  await buildCli(buildDir);
}, 60_000);
afterAll(async () => {
  await rm(buildDir, { recursive: true, force: true });
});
beforeEach(async () => {
  ws = await mkdtemp(join(tmpdir(), 'cli-ws-'));
  return () => rm(ws, { recursive: true, force: true });
});

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

function start(args: string[], onStdout?: (text: string, child: ReturnType<typeof spawn>) => void, moreEnv: NodeJS.ProcessEnv = {}) {
  // HOME is the test's own, so ~/.claude/agents of the machine running the tests is never read.
  const env = { ...process.env, OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '', SUBAGENTS_API_KEY: '', HOME: join(ws, '.home'), ...moreEnv };
  const child = spawn(process.execPath, [cli, ...args], { cwd: ws, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString();
    onStdout?.(stdout, child);
  });
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise<Result>((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

const run = (...args: string[]) => start(args);

async function script(name: string, agents: Record<string, unknown[]>): Promise<void> {
  await writeFile(join(ws, name), JSON.stringify({ agents }));
}

const DELEGATING = {
  supervisor: [
    { text: 'Delegating. ', toolCalls: [{ tool: 'delegate_task', input: { task: 'look around', agents: ['explore'] } }] },
    { text: 'All done.' },
  ],
  explore: [{ match: 'look', text: 'found src/app.ts', usage: { inputTokens: 5, outputTokens: 3 } }],
};

function events(stdout: string): RunEvent[] {
  return stdout
    .trim()
    .split('\n')
    .map((line) => runEventSchema.parse(JSON.parse(line)));
}

describe('subagents CLI: usage and configuration errors exit 2', () => {
  it('explains what is wrong', async () => {
    const none = await run();
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('No command given');
    const unknown = await run('run', '--frobnicate', 'x');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/Unknown option '--frobnicate'.*subagents --help/);
    const noPrompt = await run('run', '--model', 'scripted:s.json');
    expect(noPrompt.code).toBe(2);
    expect(noPrompt.stderr).toContain('needs a PROMPT');
    const badApproval = await run('run', '--approval', 'yolo', 'hi');
    expect(badApproval.code).toBe(2);
    const noModel = await run('run', 'hi');
    expect(noModel.code).toBe(2);
    expect(noModel.stderr).toContain('No model is set');
    const badSpec = await run('run', '--model', 'gpt-4o', 'hi');
    expect(badSpec.code).toBe(2);
    expect(badSpec.stderr).toContain('Use one of:');
    const editorOnly = await run('run', '--model', 'vscode-lm:copilot/gpt-4o', 'hi');
    expect(editorOnly.code).toBe(2);
    expect(editorOnly.stderr).toContain('only available inside VS Code');
    // The run's env clears OPENAI_API_KEY: a vendor model without its key is a configuration error.
    const noKey = await run('run', '--model', 'openai:gpt-4o', 'hi');
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toMatch(/needs an OpenAI API key.*OPENAI_API_KEY/);
    const help = await run('--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Exit codes');
  });

  it('names a bad script file and where it is wrong', async () => {
    await writeFile(join(ws, 'bad.json'), '{ "agents": { "supervisor": [ { "text": "x" }, ] } }');
    const bad = await run('run', '--model', 'scripted:bad.json', 'hi');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(
      `${join(ws, 'bad.json')}" is not valid JSON at line 1, column 48: expected a value (JSON allows no trailing comma)`,
    );
    const missing = await run('run', '--model', 'scripted:nope.json', 'hi');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('there is no such file');
    await script('shape.json', { supervisor: [{ error: { status: 'x', message: 'm' } }] });
    const shape = await run('run', '--model', 'scripted:shape.json', 'hi');
    expect(shape.code).toBe(2);
    expect(shape.stderr).toContain('agents.supervisor[0].error.status');
  });

  it('reads settings.json as JSONC and reports a bad setting', async () => {
    await mkdir(join(ws, '.vscode'));
    await writeFile(join(ws, '.vscode', 'settings.json'), '{\n  // depth\n  "subagents.maxDepth": "deep",\n}\n');
    const result = await run('run', '--model', 'scripted:s.json', 'hi');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('"subagents.maxDepth"');
  });
});

describe('subagents CLI: runs', () => {
  it('honours subagents.maxActiveChildren from settings.json, as the extension does', async () => {
    await mkdir(join(ws, '.vscode'));
    await writeFile(join(ws, '.vscode', 'settings.json'), JSON.stringify({ 'subagents.maxActiveChildren': 1 }));
    await script('bg.json', {
      supervisor: [
        {
          toolCalls: [
            { tool: 'delegate_task', input: { task: 'slow one', agents: ['explore'], background: true } },
            { tool: 'delegate_task', input: { task: 'slow two', agents: ['explore'], background: true } },
          ],
        },
        { text: 'Started what I could.' },
      ],
      explore: [
        { match: 'slow', delayMs: 200, text: 'done' },
        { match: 'slow', delayMs: 200, text: 'done' },
      ],
    });
    const result = await run('run', '--json', '--model', 'scripted:bg.json', 'Start two');
    const all = events(result.stdout);
    const starts = all.filter((e) => e.kind === 'tool.finished' && e.tool === 'delegate_task');
    expect(starts).toHaveLength(2);
    const refused = starts.filter((e) => e.kind === 'tool.finished' && e.isError);
    expect(refused).toHaveLength(1);
    expect(JSON.stringify(refused[0])).toContain('subagents.maxActiveChildren is 1');
  });

  it('prints every RunEvent as a JSON line and exits 0', async () => {
    await script('demo.json', DELEGATING);
    const result = await run('run', '--json', '--model', 'scripted:demo.json', 'Please explore');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const all = events(result.stdout);
    const started = all.filter((e) => e.kind === 'run.started');
    expect(started.map((e) => e.kind === 'run.started' && e.agent)).toEqual(['supervisor', 'explore']);
    const finished = all.filter((e) => e.kind === 'run.finished');
    expect(finished.map((e) => e.kind === 'run.finished' && e.status)).toEqual(['ok', 'ok']);
    expect(
      all
        .filter((e) => e.kind === 'text.delta' && e.runId === started[0]!.runId)
        .map((e) => e.kind === 'text.delta' && e.text)
        .join(''),
    ).toContain('All done.');
  });

  it('streams the answer on stdout and lists and shows the thread afterwards', async () => {
    await mkdir(join(ws, '.vscode'));
    await writeFile(join(ws, '.vscode', 'settings.json'), '{ "subagents.model": "scripted:demo.json", /* ok */ }');
    await script('demo.json', DELEGATING);
    const result = await run('run', 'Please explore');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('All done.');
    expect(result.stderr).toContain('[explore] started: look around');

    const list = await run('threads', 'list', '--json');
    expect(list.code).toBe(0);
    const threads = JSON.parse(list.stdout) as { id: string; title: string; parentThreadId: string | null }[];
    expect(threads).toHaveLength(1);
    expect(threads[0]).toMatchObject({ title: 'Please explore', parentThreadId: null });
    expect(await readdir(join(ws, '.subagents', 'threads'))).toContain(`${threads[0]!.id}.jsonl`);

    const show = await run('threads', 'show', threads[0]!.id);
    expect(show.code).toBe(0);
    const lines = show.stdout.split('\n');
    // The supervisor's own tokens, then rolled up over its subagent (whose 5 in / 3 out are included).
    const top = /^supervisor \[ok\] Please explore {2}\(\d+ms · (\d+) in \/ (\d+) out; with 1 subagent run: (\d+) in \/ (\d+) out\)$/.exec(
      lines[1]!,
    );
    expect(top).not.toBeNull();
    const [own_in, own_out, all_in, all_out] = top!.slice(1).map(Number);
    expect([all_in! - own_in!, all_out! - own_out!]).toEqual([5, 3]);
    expect(lines[2]).toBe('  - Delegated to explore');
    expect(show.stdout).toMatch(/\n {2}explore \[ok\] look around {2}\(\d+m?s · 5 in \/ 3 out\)/);

    const md = await run('threads', 'export', threads[0]!.id);
    expect(md.stdout).toMatch(/^# Please explore\n/);
    expect(md.stdout).toContain('### explore: look around');
    const json = await run('threads', 'export', threads[0]!.id, '--format', 'json');
    expect((JSON.parse(json.stdout) as { events: unknown[] }).events.length).toBeGreaterThan(4);

    const unknown = await run('threads', 'show', 'no_such_thread');
    expect(unknown.code).toBe(2);
    const deleted = await run('threads', 'delete', threads[0]!.id);
    expect(deleted.code).toBe(0);
    expect(JSON.parse((await run('threads', 'list', '--all', '--json')).stdout)).toEqual([]);
  });

  it('threads show --effective prints what each run was given: profile source, model, tools, limits, prompts (and the same as --json)', async () => {
    await mkdir(join(ws, '.vscode', 'agents'), { recursive: true });
    await writeFile(
      join(ws, '.vscode', 'agents', 'reviewer.md'),
      '---\ndescription: Reviews code\ntools: [read_file, search_text]\nmaxTokens: 20000\n---\nReview carefully.\n',
    );
    await writeFile(join(ws, 'AGENTS.md'), 'Use tabs, not spaces.\n');
    await writeFile(
      join(ws, '.vscode', 'settings.json'),
      JSON.stringify({ 'subagents.model': 'scripted:s.json', 'subagents.budget': { maxTokens: 90000 } }),
    );
    await script('s.json', {
      supervisor: [
        { toolCalls: [{ tool: 'delegate_task', input: { task: 'review app.ts', agents: ['reviewer'], context: 'only src/' } }] },
        { text: 'Reviewed.' },
      ],
      reviewer: [{ text: 'Looks fine.' }],
    });
    expect((await run('run', 'Review my app')).code).toBe(0);
    const [thread] = JSON.parse((await run('threads', 'list', '--json')).stdout) as { id: string }[];

    const json = await run('threads', 'show', thread!.id, '--effective', '--json');
    expect(json.code).toBe(0);
    const { runs } = JSON.parse(json.stdout) as {
      runs: {
        agent: string;
        depth: number;
        config: Record<string, unknown> & { tools: { effective: string[]; removed: { tool: string; reason: string }[] } };
      }[];
    };
    expect(runs.map((r) => [r.agent, r.depth])).toEqual([
      ['supervisor', 0],
      ['reviewer', 1],
    ]);
    const reviewer = runs[1]!.config;
    expect(reviewer).toMatchObject({
      profileSource: '.vscode/agents/reviewer.md',
      profilePath: join(ws, '.vscode', 'agents', 'reviewer.md'),
      model: {
        requested: null,
        effective: 'scripted:s.json',
        via: 'its parent\'s model (the "supervisor" run): the profile names no model',
      },
      limits: {
        maxSteps: { value: 25, source: 'the default (25)' },
        maxTokens: { value: 20000, source: 'the "reviewer" profile\'s maxTokens' },
      },
      taskMessage: 'review app.ts\n\n## Context\nonly src/',
      projectInstructions: ['AGENTS.md'],
    });
    expect(reviewer.tools.effective).toEqual(['read_file', 'search_text']);
    expect(reviewer.tools.removed).toContainEqual({ tool: 'write_file', reason: "not in the profile's tools" });
    expect(String(reviewer['systemPrompt'])).toMatch(/^Review carefully\.[\s\S]*Use tabs, not spaces\./);
    expect(runs[0]!.config).toMatchObject({
      profileSource: 'built-in',
      limits: { maxTokens: { value: 90000, source: 'subagents.budget.maxTokens, for the whole request' } },
    });

    const text = await run('threads', 'show', thread!.id, '--effective');
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`\n  reviewer (run `);
    expect(text.stdout).toContain(`\n    profile: .vscode/agents/reviewer.md (${join(ws, '.vscode', 'agents', 'reviewer.md')})`);
    expect(text.stdout).toContain(
      "\n    tools: read_file, search_text\n      declared tools: read_file, search_text\n      not given list_dir: not in the profile's tools\n",
    );
    expect(text.stdout).toContain(
      '\n      not given ask_user: the child filter: only the supervisor talks to the user or installs things\n',
    );
    expect(text.stdout).toContain('\n    maxTokens: 20000 (the "reviewer" profile\'s maxTokens)');
    expect(text.stdout).toContain('\n    task message:\n      | review app.ts\n      | \n      | ## Context\n      | only src/');
  });

  it('continues a thread with --thread and refuses an unknown one', async () => {
    await script('demo.json', {
      supervisor: [
        { match: 'first', text: 'one' },
        { match: 'second', text: 'two' },
      ],
    });
    const first = await run('run', '--json', '--model', 'scripted:demo.json', 'first');
    const threadId = events(first.stdout)[0]!.threadId;
    const second = await run('run', '--json', '--model', 'scripted:demo.json', '--thread', threadId, 'second');
    expect(second.code).toBe(0);
    const evs = events(second.stdout);
    expect(evs[0]!.threadId).toBe(threadId);
    expect(evs[0]!.seq).toBeGreaterThan(events(first.stdout).at(-1)!.seq);
    const missing = await run('run', '--model', 'scripted:demo.json', '--thread', 'nope', 'x');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('There is no thread "nope"');
  });

  it('prints a retry on stderr as it happens, then the answer', async () => {
    await script('busy.json', { supervisor: [{ error: { status: 429, message: 'slow down', retryAfterMs: 10 } }, { text: 'made it' }] });
    const result = await run('run', '--model', 'scripted:busy.json', 'hi');
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('[supervisor] retry 1/4 in 10 ms · 429: slow down');
    expect(result.stdout).toContain('made it');
  });

  it('exits 1 when the run fails', async () => {
    await script('fail.json', { supervisor: [{ error: { status: 400, message: 'bad request from the provider' } }] });
    const result = await run('run', '--model', 'scripted:fail.json', 'hi');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('error');
  });

  it('cancels every open run on SIGINT, writes them down and exits 130', async () => {
    await script('slow.json', {
      supervisor: [{ toolCalls: [{ tool: 'delegate_task', input: { task: 'wait', agents: ['explore'] } }] }, { text: 'never' }],
      explore: [{ delayMs: 60_000, text: 'too late' }],
    });
    let sent = false;
    const result = await start(['run', '--json', '--model', 'scripted:slow.json', 'hang on'], (stdout, child) => {
      // Interrupt once the child run has started: an event, not a guess at timing.
      if (!sent && stdout.includes('"agent":"explore"')) {
        sent = true;
        child.kill('SIGINT');
      }
    });
    expect(result.code).toBe(130);
    const finished = events(result.stdout).filter((e) => e.kind === 'run.finished');
    expect(finished.map((e) => e.kind === 'run.finished' && e.status)).toEqual(['cancelled', 'cancelled']);
    const dir = join(ws, '.subagents', 'threads');
    const files = (await readdir(dir)).filter((f) => f.endsWith('.jsonl'));
    const onDisk = (await Promise.all(files.map((f) => readFile(join(dir, f), 'utf8')))).join('');
    expect(onDisk.match(/"status":"cancelled"/g)).toHaveLength(2);
  });

  it('leaves nothing in the temp folder after a run that ran a command in the OS sandbox, and clears what a killed run left there', async () => {
    // A temp folder of the run's own (TMPDIR): whatever the process left there is its own, by any name
    // (the sandbox's proxy sockets; the git excludes folder for the missing protected path .env).
    const temp = await mkdtemp(join(tmpdir(), 'cli-temp-'));
    try {
      // An earlier run killed after a sandboxed command: no exit handler removed its socket and folder.
      await leaveLeftoversOfKilledProcess(temp);
      await script('command.json', {
        supervisor: [{ toolCalls: [{ tool: 'run_command', input: { command: 'echo inside' } }] }, { text: 'done' }],
      });
      const result = await start(
        ['run', '--json', '--model', 'scripted:command.json', '--approval', 'trust', '--sandbox', 'on', 'go'],
        undefined,
        { TMPDIR: temp },
      );
      expect(result.code, result.stderr).toBe(0);
      // It ran in the sandbox (`on` refuses to run it otherwise): its output is in the tool's result.
      expect(result.stdout).toContain('inside');
      expect(await readdir(temp)).toEqual([]);
    } finally {
      await rm(temp, { recursive: true, force: true });
    }
  });
});

describe('subagents CLI: profiles', () => {
  it('lists the merged profiles and validates them', async () => {
    const ok = await run('profiles', 'validate');
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('2 profiles, no problems.');
    await mkdir(join(ws, '.vscode'));
    await writeFile(
      join(ws, '.vscode', 'settings.json'),
      '{\n  "subagents.agents": {\n    // a reviewer\n    "reviewer": { "description": "Reviews diffs", "tools": ["read_file"] },\n    "broken": { "maxSteps": 0 },\n    "explore": { "enabled": false },\n  },\n}',
    );
    const list = await run('profiles', 'list');
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^general-purpose {2}\(built-in\)/m);
    expect(list.stdout).toMatch(/^reviewer {2}\(.*settings\.json\) {2}Reviews diffs$/m);
    expect(list.stdout).not.toMatch(/^explore/m);
    const bad = await run('profiles', 'validate', '--json');
    expect(bad.code).toBe(2);
    const body = JSON.parse(bad.stdout) as { ok: boolean; problems: { agent: string; field: string; severity: string; message: string }[] };
    expect(body.ok).toBe(false);
    expect(
      body.problems
        .filter((p) => p.severity === 'error')
        .map((p) => `${p.agent}.${p.field}`)
        .sort(),
    ).toEqual(['broken.description', 'broken.maxSteps']);
  });

  it('lists imported agents with their display names, and every problem and note, in text and --json', async () => {
    await mkdir(join(ws, '.github', 'agents'), { recursive: true });
    await mkdir(join(ws, '.claude', 'agents'), { recursive: true });
    await mkdir(join(ws, '.home', '.claude', 'agents'), { recursive: true });
    await writeFile(
      join(ws, '.github', 'agents', 'CSharp.Expert.agent.md'),
      "---\nname: 'C# Expert'\ndescription: Knows C#\ntools: ['search', 'web/githubRepo']\n---\nBe sharp.",
    );
    await writeFile(
      join(ws, '.claude', 'agents', 'hipaa.md'),
      "---\nname: hipaa\ndescription: Health data. Triggers on: 'HIPAA'\nmodel: sonnet\n---\n",
    );
    await writeFile(join(ws, '.claude', 'agents', 'nameless.md'), '---\ndescription: has no name\n---\n');
    await writeFile(join(ws, '.home', '.claude', 'agents', 'mine.md'), '---\nname: mine\ndescription: From my home\n---\n');
    await writeFile(join(ws, 'AGENTS.md'), 'Use pnpm.');
    const list = await run('profiles', 'list');
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^csharp-expert "C# Expert" {2}\(\.github\/agents\/CSharp\.Expert\.agent\.md\) {2}Knows C#$/m);
    expect(list.stdout).toMatch(/^mine {2}\(~\/\.claude\/agents\/mine\.md\)/m);
    expect(list.stdout).toContain("Project instructions in every agent's prompt: AGENTS.md");
    expect(list.stderr).toContain(
      'subagents: note: .github/agents/CSharp.Expert.agent.md, line 4 (agent "csharp-expert"): "web/githubRepo" is left out: searching GitHub repositories comes with a later version; the agent works without it.',
    );
    expect(list.stderr).toMatch(
      /subagents: note: \.claude\/agents\/hipaa\.md, line 3 \(agent "hipaa"\): its front matter is not strict YAML/,
    );
    expect(list.stderr).toMatch(
      /subagents: note: \.claude\/agents\/hipaa\.md, line 4 \(agent "hipaa"\): model "sonnet" cannot be used here .*set ANTHROPIC_API_KEY/,
    );
    expect(list.stderr).toContain(
      'subagents: error: .claude/agents/nameless.md, line 1 (agent "nameless"): has no "name", which Claude Code requires',
    );

    const validate = await run('profiles', 'validate', '--json');
    expect(validate.code).toBe(2);
    const body = JSON.parse(validate.stdout) as {
      ok: boolean;
      problems: { code: string; severity: string; location: { path: string; line: number } }[];
    };
    expect(body.ok).toBe(false);
    expect(body.problems.map((p) => `${p.severity}:${p.code}`).sort()).toEqual([
      'error:no-name',
      'information:id-from-name',
      'information:lenient-front-matter',
      'information:model-unavailable',
      'information:tool-later',
    ]);
    expect(body.problems.find((p) => p.code === 'tool-later')!.location).toEqual({
      path: join(ws, '.github', 'agents', 'CSharp.Expert.agent.md'),
      line: 4,
      column: 19,
    });

    await rm(join(ws, '.claude', 'agents', 'nameless.md'));
    const ok = await run('profiles', 'validate');
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/^\d+ profiles; 0 errors, 0 warnings, 4 notes\.$/m);
  });
});
