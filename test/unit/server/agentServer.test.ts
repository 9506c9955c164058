import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CodeAction, CompletionItem, Diagnostic, Hover, TextEdit } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { startServer } from './lspHarness';

let cleanup: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanup) c();
  cleanup = [];
});

function workspace(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'subagents-lsp-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  cleanup.push(() => rmSync(root, { recursive: true, force: true }));
  return root;
}

async function server(root: string) {
  const s = await startServer(root, { home: join(root, 'no-home') });
  cleanup.push(() => s.dispose());
  return s;
}

const BROKEN = '---\nname: checker\ntools: [Read, read_file]\n---\nCheck things.\n';

describe('the agent-file language server', () => {
  it("publishes the validator's problems at their exact ranges for an opened file", async () => {
    const root = workspace({ '.vscode/agents/checker.md': BROKEN });
    const s = await server(root);
    const uri = s.uri(join(root, '.vscode/agents/checker.md'));
    s.open(uri, BROKEN);
    const { diagnostics } = await s.diagnostics(uri, (p) => p.diagnostics.length > 0);
    expect(
      diagnostics.map((d: Diagnostic) => [d.code, d.severity, d.range.start.line, d.range.start.character, d.range.end.character]),
    ).toEqual([
      ['no-description', 1, 0, 0, 3],
      ['tool-foreign', 2, 2, 8, 12],
    ]);
    expect(diagnostics[0]!.message).toBe('has no description: add "description:" saying what this agent is for and when to use it');
  });

  it("a YAML error does not hide the file's other problems (issue 39 item 12)", async () => {
    const text = '---\nname: checker\ncolr: blue\ntools:\n  - Zapp\n  - read_file\nmodel: [sonnet\n---\nCheck things.\n';
    const root = workspace({ '.vscode/agents/checker.md': text });
    const s = await server(root);
    const uri = s.uri(join(root, '.vscode/agents/checker.md'));
    s.open(uri, text);
    const { diagnostics } = await s.diagnostics(uri, (p) => p.diagnostics.length > 0);
    expect(diagnostics.map((d: Diagnostic) => [d.code, d.severity, d.range.start.line])).toEqual([
      // On the line where the list opens, not on the closing "---" where the parser gave up.
      ['bad-yaml', 1, 6],
      ['no-description', 1, 0],
      ['unknown-field', 2, 2],
      ['tool-editor', 3, 4],
    ]);
    expect(diagnostics[0]!.message).toMatch(
      /^has front matter that no reader can read: the "model" value on line 7 opens a list with "\[" that is never closed/,
    );
  });

  it('warns about a profile that can write but not read, at its tools (issue 39 item 6)', async () => {
    const text = '---\ndescription: Fixes\ntools: [edit_file, search_text]\n---\nFix.\n';
    const root = workspace({ '.vscode/agents/fixer.md': text });
    const s = await server(root);
    const uri = s.uri(join(root, '.vscode/agents/fixer.md'));
    s.open(uri, text);
    const { diagnostics } = await s.diagnostics(uri, (p) => p.diagnostics.length > 0);
    expect(diagnostics.map((d: Diagnostic) => [d.code, d.severity, d.range.start.line])).toEqual([['write-without-read', 2, 2]]);
    expect(diagnostics[0]!.message).toMatch(/read_file is added/);
  });

  it('offers quick fixes that make the problem go away', async () => {
    const root = workspace({ '.vscode/agents/checker.md': BROKEN });
    const s = await server(root);
    const uri = s.uri(join(root, '.vscode/agents/checker.md'));
    s.open(uri, BROKEN);
    const { diagnostics } = await s.diagnostics(uri, (p) => p.diagnostics.length === 2);
    const edits: TextEdit[] = [];
    for (const diagnostic of diagnostics) {
      const actions = (await s.client.sendRequest('textDocument/codeAction', {
        textDocument: { uri },
        range: diagnostic.range,
        context: { diagnostics: [diagnostic] },
      })) as CodeAction[];
      expect(actions.map((a) => a.title)).toHaveLength(1);
      edits.push(...(actions[0]!.edit!.changes![uri]! as TextEdit[]));
    }
    const doc = TextDocument.create(uri, 'markdown', 1, TextDocument.applyEdits(TextDocument.create(uri, 'markdown', 1, BROKEN), edits));
    expect(doc.getText()).toBe(
      '---\nname: checker\ndescription: Describe what this agent does and when to use it\ntools: [read_file, read_file]\n---\nCheck things.\n',
    );
    const cleared = s.nextDiagnostics(uri);
    s.change(uri, doc.getText());
    expect((await cleared).diagnostics).toEqual([]);
  });

  it('completes field names, tool names, agent names and models, and explains fields on hover', async () => {
    const root = workspace({
      '.vscode/agents/helper.md': '---\ndescription: helps\n---\n',
      '.claude/agents/rev.md': '---\nname: rev\ndescription: reviews\n---\n',
    });
    const s = await server(root);
    const uri = s.uri(join(root, '.vscode/agents/new.md'));
    const text = '---\ndescription: x\ntools: [re]\nagents: [h]\nmodel: \n\n---\n';
    s.open(uri, text);
    await s.diagnostics(uri);
    const at = async (line: number, character: number) =>
      (
        (await s.client.sendRequest('textDocument/completion', {
          textDocument: { uri },
          position: { line, character },
        })) as CompletionItem[]
      ).map((i) => i.label);
    const fields = await at(5, 0);
    expect(fields).toContain('maxSteps');
    expect(fields).not.toContain('description');
    expect(await at(2, 10)).toEqual(expect.arrayContaining(['read_file', 'run_command', 'delegate_task']));
    expect(await at(3, 10)).toEqual(expect.arrayContaining(['helper', 'rev', 'explore', 'general-purpose']));
    expect(await at(4, 7)).toEqual(expect.arrayContaining(['inherit', 'sonnet', 'anthropic:claude-sonnet-5-5']));

    const hover = (await s.client.sendRequest('textDocument/hover', {
      textDocument: { uri },
      position: { line: 2, character: 2 },
    })) as Hover;
    expect((hover.contents as { value: string }).value).toMatch(/^\*\*tools\*\*: The tools this agent may use/);
  });

  it("offers the external agents' ready `acp:` (issue 44 item 7) with their documented commands; the one picked is a valid agent file", async () => {
    const root = workspace({});
    const s = await server(root);
    const uri = s.uri(join(root, '.vscode/agents/outside.md'));
    const text = '---\ndescription: an external agent\nacp: \n---\n';
    s.open(uri, text);
    await s.diagnostics(uri);
    const items = (await s.client.sendRequest('textDocument/completion', {
      textDocument: { uri },
      position: { line: 2, character: 5 },
    })) as CompletionItem[];
    expect(items.map((i) => [i.label, i.detail])).toEqual([
      ['Claude Code', 'npx -y @agentclientprotocol/claude-agent-acp'],
      ['Codex', 'npx -y @agentclientprotocol/codex-acp'],
      ['Gemini CLI', 'gemini --acp'],
      ['Copilot CLI', 'copilot --acp --stdio'],
      ['OpenCode', 'opencode acp'],
    ]);
    for (const item of items) expect((item.documentation as { value: string }).value).toMatch(/Log in first in a terminal: `[^`]+`/);

    // The picked recipe, inserted after "acp: ", is a file the validator accepts as it is.
    const gemini = items.find((i) => i.label === 'Gemini CLI')!;
    const picked = text.replace('acp: \n', `acp: ${gemini.insertText}\n`);
    expect(picked).toBe('---\ndescription: an external agent\nacp: \n  command: gemini\n  args: ["--acp"]\n---\n');
    const settled = s.nextDiagnostics(uri);
    s.change(uri, picked);
    expect((await settled).diagnostics).toEqual([]);
  });

  it('keeps tools of the servers in .mcp.json without a note, and notes one that is not declared', async () => {
    const text = '---\nname: gh\ndescription: uses GitHub\ntools: Read, mcp__github__get_issue, mcp__jira__find\n---\n';
    const root = workspace({
      '.claude/agents/gh.md': text,
      '.mcp.json': JSON.stringify({ mcpServers: { github: { command: 'gh-mcp' } } }),
    });
    const s = await server(root);
    const uri = s.uri(join(root, '.claude/agents/gh.md'));
    s.open(uri, text);
    const { diagnostics } = await s.diagnostics(uri, (p) => p.diagnostics.length > 0);
    expect(diagnostics.map((d: Diagnostic) => d.message)).toEqual([expect.stringContaining('no MCP server "jira" is configured')]);
  });

  it('explains imported tool names and model aliases on hover', async () => {
    const text = '---\nname: rev\ndescription: reviews\ntools: [Grep, WebSearch]\nmodel: sonnet\n---\n';
    const root = workspace({ '.claude/agents/rev.md': text });
    const s = await server(root);
    const uri = s.uri(join(root, '.claude/agents/rev.md'));
    s.open(uri, text);
    await s.diagnostics(uri);
    const hover = async (line: number, character: number) =>
      ((await s.client.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line, character } })) as Hover | null)
        ?.contents as { value: string } | undefined;
    expect((await hover(3, 9))!.value).toBe('`Grep` → `search_text`.');
    expect((await hover(3, 16))!.value).toMatch(/`WebSearch`: not available yet/);
    expect((await hover(4, 8))!.value).toBe('Runs on `anthropic:claude-sonnet-5-5` (from "sonnet").');
  });

  it('reports a duplicate in another file as soon as an edit makes one', async () => {
    const root = workspace({
      '.claude/agents/a.md': '---\nname: a\ndescription: first\n---\n',
      '.claude/agents/b.md': '---\nname: b\ndescription: second\n---\n',
    });
    const s = await server(root);
    const uri = s.uri(join(root, '.claude/agents/b.md'));
    s.open(uri, '---\nname: b\ndescription: second\n---\n');
    await s.diagnostics(uri);
    s.change(uri, '---\nname: a\ndescription: second\n---\n');
    const { diagnostics } = await s.diagnostics(uri, (p) => p.diagnostics.some((d) => d.code === 'duplicate'));
    expect(diagnostics.find((d) => d.code === 'duplicate')!.message).toMatch(/as \.claude\/agents\/a\.md does/);
  });

  it('marks an unclosed quote on its own line with a sentence, not on the closing "---" (issue 42 item 5)', async () => {
    const text = '---\nname: checker\ndescription: Checks\ntools: "read_file\n---\nCheck things.\n';
    const root = workspace({ '.vscode/agents/checker.md': text });
    const s = await server(root);
    const uri = s.uri(join(root, '.vscode/agents/checker.md'));
    s.open(uri, text);
    const { diagnostics } = await s.diagnostics(uri, (p) => p.diagnostics.length > 0);
    expect(diagnostics.map((d: Diagnostic) => [d.code, d.severity, d.range.start.line, d.range.end.line])).toEqual([['bad-yaml', 1, 3, 3]]);
    expect(diagnostics[0]!.message).toBe(
      'has front matter that no reader can read: the "tools" value on line 4 opens a quote (") that is never closed; close it at the end of the value',
    );
  });

  it('warns at model: when its provider has no key in this window, and not once the host says one is set (issue 42 item 5)', async () => {
    const text = '---\nname: checker\ndescription: Checks\nmodel: openai:gpt-5\n---\nCheck things.\n';
    const root = workspace({ '.claude/agents/checker.md': text });
    const s = await startServer(root, { home: join(root, 'no-home'), models: { keys: ['anthropic'] } });
    cleanup.push(() => s.dispose());
    const uri = s.uri(join(root, '.claude/agents/checker.md'));
    s.open(uri, text);
    const { diagnostics } = await s.diagnostics(uri, (p) => p.diagnostics.length > 0);
    expect(diagnostics.map((d: Diagnostic) => [d.code, d.severity, d.range.start.line, d.range.start.character])).toEqual([
      ['model-no-key', 2, 3, 7],
    ]);
    expect(diagnostics[0]!.message).toMatch(/^model "openai:gpt-5" needs an OpenAI API key, and none is set: run "Subagents: Set API Key"/);
    await s.client.sendNotification('subagents/configure', { home: join(root, 'no-home'), models: { keys: ['anthropic', 'openai'] } });
    expect((await s.diagnostics(uri, (p) => p.diagnostics.length === 0)).diagnostics).toEqual([]);
  });
});
