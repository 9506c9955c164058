import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildCli } from '../../../scripts/bundles.mjs';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

// Issue 40 item 6: what agent files say reaches the terminal through the real CLI process, and
// none of their escape sequences, C1 controls or bidi overrides do.
vi.setConfig({ testTimeout: 60_000 });
const GUARD_MS = 30_000;

let buildDir: string;
let cli: string;
let ws: string;

beforeAll(async () => {
  buildDir = await mkdtemp(join(tmpdir(), 'cli-agentfile-text-build-'));
  cli = join(buildDir, 'cli.js');
  await buildCli(buildDir);
}, 60_000);
afterAll(() => rm(buildDir, { recursive: true, force: true }));
beforeEach(async () => {
  ws = await mkdtemp(join(tmpdir(), 'cli-agentfile-text-ws-'));
  return () => rm(ws, { recursive: true, force: true });
});

function start(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env = { ...process.env, OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '', SUBAGENTS_API_KEY: '', HOME: join(ws, '.home') };
  const child = spawn(process.execPath, [cli, ...args], { cwd: ws, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const guard = setTimeout(() => child.kill('SIGKILL'), GUARD_MS);
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearTimeout(guard);
      resolve({ code, stdout, stderr });
    }),
  );
}

const ESC = '\u001b';
/** Anything a terminal acts on, but newline and tab. */
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/** The attacks, as YAML double-quoted escapes (a file can also hold the raw bytes: the body does). */
const YAML_NASTY = '\\e]52;c;cm0gLXJmIH4=\\a \\e[2J\\e[H \\x9b31m \\u202egnp.exe';
const RAW_NASTY = `${ESC}]0;pwned${ESC}\\ ${ESC}[2J \u009b31m \u202eevil\u2066`;

async function agentFiles(): Promise<void> {
  await mkdir(join(ws, '.github/agents'), { recursive: true });
  await mkdir(join(ws, '.claude/agents'), { recursive: true });
  await writeFile(
    join(ws, '.github/agents/evil.agent.md'),
    `---\nname: "Evil one"\ndescription: "Reviews ${YAML_NASTY} code"\ntools: ['read', 'bogus\\u009b2J']\n---\nYou review. ${RAW_NASTY}\n`,
  );
  // A display name holding them is an error, whose message quotes the value.
  await writeFile(join(ws, '.github/agents/named.agent.md'), '---\nname: "Evil \\e]0;title\\a one"\ndescription: Named\n---\nBody\n');
  // A problem message quotes the file: an unknown tool name holding the sequences.
  await writeFile(
    join(ws, '.claude/agents/other.md'),
    `---\nname: other\ndescription: "Other ${YAML_NASTY}"\ntools: "Read, Zap\\e[2J"\n---\nBody ${RAW_NASTY}\n`,
  );
}

describe('agent files cannot drive the terminal through the CLI (issue 40 item 6)', () => {
  it('profiles list and validate print the names, descriptions and problems without control sequences; --json keeps them, escaped', async () => {
    await agentFiles();
    const list = await start(['profiles', 'list']);
    const validate = await start(['profiles', 'validate']);
    for (const [name, out] of Object.entries({ list, validate })) {
      expect(
        CONTROLS.test(`${out.stdout}${out.stderr}`.replace(/[\n\t]/g, '')),
        `a control character reached the terminal in profiles ${name}: ${JSON.stringify(out)}`,
      ).toBe(false);
    }
    expect(list.stdout).toMatch(/^evil "Evil .*one" +\(\.github\/agents\/evil\.agent\.md\) +Reviews .*code$/m);
    expect(validate.stderr).toContain('Zap');
    expect(validate.stderr).toMatch(/named\.agent\.md.*"displayName" must not hold control characters/);
    const json = await start(['profiles', 'list', '--json']);
    expect(CONTROLS.test(json.stdout.replace(/\n/g, ''))).toBe(false);
    const parsed = JSON.parse(json.stdout) as { profiles: { name: string; description: string }[] };
    expect(parsed.profiles.find((p) => p.name === 'evil')?.description).toBe(
      `Reviews ${ESC}]52;c;cm0gLXJmIH4=\u0007 ${ESC}[2J${ESC}[H \u009b31m \u202egnp.exe code`,
    );
  });

  it('a run with such an agent, then threads list, show, show --effective (text and JSON): nothing raw', async () => {
    await agentFiles();
    await writeFile(
      join(ws, 'script.json'),
      JSON.stringify({
        agents: {
          supervisor: [
            { toolCalls: [{ tool: 'delegate_task', input: { task: `review ${RAW_NASTY}`, agents: ['evil'] } }] },
            { text: `Done ${RAW_NASTY}` },
          ],
          evil: [{ text: `Found ${RAW_NASTY}` }],
        },
      }),
    );
    const run = await start(['run', '--model', 'scripted:script.json', `go ${RAW_NASTY}`]);
    expect(run.code, run.stderr).toBe(0);
    const thread = /thread (t_\w+)/.exec(run.stderr)?.[1] ?? '';
    const runJson = await start(['run', '--json', '--model', 'scripted:script.json', 'again']);
    const outputs = {
      run,
      runJson,
      list: await start(['threads', 'list']),
      listJson: await start(['threads', 'list', '--json']),
      show: await start(['threads', 'show', thread]),
      showJson: await start(['threads', 'show', thread, '--json']),
      effective: await start(['threads', 'show', thread, '--effective']),
      effectiveJson: await start(['threads', 'show', thread, '--effective', '--json']),
    };
    for (const [name, out] of Object.entries(outputs)) {
      expect(
        CONTROLS.test(`${out.stdout}${out.stderr}`.replace(/[\n\t]/g, '')),
        `a control character reached the terminal in ${name}`,
      ).toBe(false);
    }
    // What the agent file says is there, only without its sequences.
    expect(outputs.effective.stdout).toContain('You review.');
    expect(outputs.effective.stdout).toMatch(/Reviews .*code/);
    // The JSON is lossless: it reads back as the text the file had.
    const effective = JSON.parse(outputs.effectiveJson.stdout) as { runs: { agent: string; config?: { systemPrompt: string } }[] };
    expect(effective.runs.find((r) => r.agent === 'evil')?.config?.systemPrompt).toContain(`You review. ${RAW_NASTY}`);
  });
});

describe('an agent answers to the dotted name its file gave it (issue 39 item 12)', () => {
  it('--agent code.reviewer and delegate_task with "code.reviewer" both reach code-reviewer', async () => {
    await mkdir(join(ws, '.github/agents'), { recursive: true });
    await mkdir(join(ws, '.claude/agents'), { recursive: true });
    await writeFile(join(ws, '.github/agents/code.reviewer.agent.md'), '---\ndescription: Reviews code\n---\nReview.\n');
    await writeFile(join(ws, '.claude/agents/test.writer.md'), '---\nname: test.writer\ndescription: Writes tests\n---\nWrite tests.\n');
    await writeFile(
      join(ws, 'script.json'),
      JSON.stringify({
        agents: {
          supervisor: [
            { toolCalls: [{ tool: 'delegate_task', input: { task: 'review and test', agents: ['code.reviewer', 'test.writer'] } }] },
            { text: 'All done.' },
          ],
          'code-reviewer': [{ text: 'Reviewed.' }],
          'test-writer': [{ text: 'Tested.' }],
        },
      }),
    );
    const direct = await start(['run', '--agent', 'code.reviewer', '--model', 'scripted:script.json', 'look']);
    expect(direct.code, direct.stderr).toBe(0);
    expect(direct.stdout).toContain('Reviewed.');
    const delegated = await start(['run', '--model', 'scripted:script.json', 'go']);
    expect(delegated.code, delegated.stderr).toBe(0);
    expect(delegated.stderr).toMatch(/\[code-reviewer\] ok/);
    expect(delegated.stderr).toMatch(/\[test-writer\] ok/);
    expect(delegated.stderr).not.toMatch(/Skipped unknown agent/);
    const unknown = await start(['run', '--agent', 'code.reviewr', '--model', 'scripted:script.json', 'look']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/There is no enabled agent "code\.reviewr"/);
  });
});

describe('profiles validate warns about an agent that can write but not read (issue 39 item 6)', () => {
  it('names the agent, says read_file is added, and still exits 0 (a warning)', async () => {
    await mkdir(join(ws, '.github/agents'), { recursive: true });
    await writeFile(
      join(ws, '.github/agents/fixer.agent.md'),
      "---\ndescription: Fixes code\ntools: ['edit/editFiles', 'problems']\n---\nFix.\n",
    );
    await writeFile(
      join(ws, '.github/agents/reviewer.agent.md'),
      "---\ndescription: Reviews code\ntools: ['codebase', 'edit/editFiles', 'search', 'problems']\n---\nReview.\n",
    );
    const r = await start(['profiles', 'validate']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /subagents: warning: \.github\/agents\/fixer\.agent\.md, line 3 \(agent "fixer"\): can write files \(edit_file and write_file\) but its "tools" do not include read_file; read_file is added/,
    );
    expect(r.stderr).not.toMatch(/agent "reviewer"\): can write/);
    const json = JSON.parse((await start(['profiles', 'list', '--json'])).stdout) as { profiles: { name: string; tools?: string[] }[] };
    expect(json.profiles.find((p) => p.name === 'reviewer')?.tools).toContain('read_file');
  });
});
