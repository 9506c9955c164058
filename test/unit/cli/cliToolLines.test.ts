import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildCliInto, cleanup, put, startCli, workspace } from './mcpHarness';

// What `subagents run` prints on stderr as a run goes: each tool call as the panel and Show Run
// Tree read it ("Reading notes.md lines 1–2…"), not its input as JSON; --json keeps the input as it is.
vi.setConfig({ testTimeout: 90_000 });

let build: { dir: string; cli: string };
let ws: string;

beforeAll(async () => {
  build = await buildCliInto();
}, 90_000);
afterAll(() => cleanup(build.dir));
beforeEach(async () => {
  ws = await workspace();
  return () => cleanup(ws);
});

/** An OSC that retitles the window, one that writes the clipboard, and a CSI that clears the screen. */
const ESCAPES = '\u001b]0;pwned\u0007\u001b]52;c;ZWNobyBoaQ==\u0007\u001b[2J';

async function scriptedRun(): Promise<void> {
  await put(ws, 'notes.md', 'one\ntwo\nthree\n');
  await put(ws, 's.json', {
    agents: {
      supervisor: [
        {
          toolCalls: [
            { tool: 'read_file', input: { path: 'notes.md', startLine: 1, endLine: 2 } },
            { tool: 'search_text', input: { pattern: `two${ESCAPES}` } },
            { tool: 'edit_file', input: { path: 'notes.md', oldText: 'four', newText: 'five' } },
          ],
        },
        { text: 'done' },
      ],
    },
  });
}

describe('the live lines of `subagents run`', () => {
  it('say what each tool call does in words, and a failure in the same words', async () => {
    await scriptedRun();
    const r = await startCli(build.cli, ws, ['run', '--approval', 'autoEdit', '--model', 'scripted:s.json', 'go']);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stderr.split('\n');
    expect(lines).toContain('[supervisor] Reading notes.md lines 1–2…');
    // The sanitizer (cli/terminalText.ts) takes each sequence out whole, its payload too.
    expect(lines).toContain('[supervisor] Searching for two…');
    expect(lines).toContain('[supervisor] Editing notes.md…');
    expect(r.stderr).toMatch(/^\[supervisor\] Edited notes\.md \+1 −1 · failed: oldText was not found in notes\.md\./m);
    // No input as JSON, and nothing from the input that a terminal would act on.
    expect(r.stderr).not.toContain('{"path"');
    expect(r.stderr).not.toMatch(/[\u001b\u0007\u009b\u009d]|pwned/);
  });

  it('--json still prints every event with its input as the JSON it is', async () => {
    await scriptedRun();
    const r = await startCli(build.cli, ws, ['run', '--json', '--approval', 'autoEdit', '--model', 'scripted:s.json', 'go']);
    expect(r.code, r.stderr).toBe(0);
    const started = r.events.filter((e) => e.kind === 'tool.started');
    expect(started.map((e) => e.kind === 'tool.started' && e.input)).toEqual([
      { path: 'notes.md', startLine: 1, endLine: 2 },
      { pattern: `two${ESCAPES}` },
      { path: 'notes.md', oldText: 'four', newText: 'five' },
    ]);
    expect(r.stdout).not.toContain('Reading notes.md');
  });

  it('says a call not approved once, as "denied", not with the sentence meant for the model', async () => {
    await put(ws, 's.json', {
      agents: { supervisor: [{ toolCalls: [{ tool: 'write_file', input: { path: 'new.md', content: 'x' } }] }, { text: 'done' }] },
    });
    const r = await startCli(build.cli, ws, ['run', '--model', 'scripted:s.json', 'go']);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stderr.split('\n');
    expect(lines).toContain('[supervisor] Writing new.md…');
    expect(lines).toContain('[supervisor] writing new.md: denied');
    expect(lines.filter((l) => l.includes('new.md'))).toHaveLength(3);
  });
});
