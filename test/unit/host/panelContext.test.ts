import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/core/ports';
import { PromptQueue } from '../../../src/core/engine/requests/promptQueue';
import { MAX_ATTACHMENT_CHARS, type EditorSelection } from '../../../src/host/attachments/readAttachment';
import { ModelChooser } from '../../../src/host/models/modelChooser';
import { PanelController, type PanelEditor } from '../../../src/host/panel/panelController';
import { splitAttachedContext } from '../../../src/shared/attachedContext';
import type { HostToWebview, PanelConfig } from '../../../src/shared/protocol';
import { agent, makeEngine } from '../core/engineHarness';
import { panelOver } from './panelHarness';
import { gatedModel } from '../fakes/gatedModel';

// What the prompt box sends beyond text: context the user attached (a workspace file, the editor's
// selection), `@agent` to have a profile answer the turn, and Insert at cursor for a code block.
// Real files in a temp workspace; the editor is a port fake.

let base: string;
let root: string;
beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'subagents-attach-')));
  root = join(base, 'ws');
  await mkdir(join(root, 'src'), { recursive: true });
  await writeFile(join(root, 'src', 'invoice.ts'), 'export function totalOf() {\n  return 1;\n}\n');
  await writeFile(join(root, '.env'), 'API_KEY=sk-live-secret\n');
  await writeFile(join(root, 'big.txt'), `${'x'.repeat(99)}\n`.repeat(1000));
  await writeFile(join(root, 'logo.png'), Buffer.from([0x89, 0x50, 0x00, 0x01]));
  await writeFile(join(base, 'outside.txt'), 'not yours\n');
  await symlink(join(base, 'outside.txt'), join(root, 'link.txt'));
});
afterEach(() => rm(base, { recursive: true, force: true }));

const config: PanelConfig = {
  model: 'scripted:x',
  agents: [{ name: 'reviewer', description: 'Reviews', displayName: 'Code Reviewer' }],
  problems: [],
  trusted: true,
};

function setup(editor: Partial<PanelEditor> = {}) {
  const gated = gatedModel();
  const agents: string[] = [];
  const h = makeEngine(
    { agents: {} },
    { agents: { reviewer: agent('Reviews') }, model: (caller) => (agents.push(caller.agent), gated.model) },
  );
  const posted: HostToWebview[] = [];
  const inserted: string[] = [];
  const fullEditor: PanelEditor = {
    selection: () => undefined,
    pickFile: async () => undefined,
    insertAtCursor: async (text) => (inserted.push(text), true),
    ...editor,
  };
  const controller = new PanelController({
    engine: h.engine,
    store: h.store,
    queue: new PromptQueue(h.engine),
    memory: { get: () => undefined, set: async () => {} },
    config: () => config,
    logger: silentLogger,
    workspaceRoot: root,
    editor: fullEditor,
    batchIntervalMs: 5,
  });
  controller.attach((m) => posted.push(m));
  const chips = () => {
    const last = posted.filter((m) => m.type === 'attachments').at(-1);
    return last?.type === 'attachments' ? last.items : [];
  };
  const notices = () => posted.flatMap((m) => (m.type === 'notice' ? [m.message] : []));
  return { h, gated, agents, controller, posted, chips, notices, inserted };
}

describe('attachments', () => {
  it('reads a named file and the editor selection, shows them as chips, and sends them with the prompt', async () => {
    const selection: EditorSelection = {
      path: join(root, 'src', 'invoice.ts'),
      name: 'invoice.ts',
      startLine: 2,
      endLine: 2,
      text: '  return 1;',
    };
    const p = setup({ selection: () => selection });
    await p.controller.receive({ type: 'attach', kind: 'file', path: 'src/invoice.ts' });
    await p.controller.receive({ type: 'attach', kind: 'selection' });
    expect(p.chips()).toEqual([
      { id: expect.any(String), kind: 'file', label: 'src/invoice.ts' },
      { id: expect.any(String), kind: 'selection', label: 'src/invoice.ts:2-2' },
    ]);
    await p.controller.receive({ type: 'send', text: 'Is this right?', attachments: p.chips().map((c) => c.id) });
    await p.gated.reached(1);
    const prompt = p.gated.calls[0]!.prompt;
    expect(prompt).toContain(
      '<attachment kind="file" path="src/invoice.ts" chars="42">\nexport function totalOf() {\n  return 1;\n}\n\n</attachment>',
    );
    expect(prompt).toContain('<attachment kind="selection" path="src/invoice.ts" lines="2-2" chars="11">\n  return 1;\n</attachment>');
    expect(splitAttachedContext(prompt)).toMatchObject({
      prompt: 'Is this right?',
      attachments: [{ label: 'src/invoice.ts' }, { label: 'src/invoice.ts:2-2' }],
    });
    // Sent: the chips are gone, and the thread is titled by the user's words, not the file.
    expect(p.chips()).toEqual([]);
    expect((await p.h.store.list())[0]?.title).toBe('Is this right?');
  });

  it('picks a file when the message names none, and does nothing when the pick is cancelled', async () => {
    let pick: string | undefined = join(root, 'src', 'invoice.ts');
    const p = setup({ pickFile: async () => pick });
    await p.controller.receive({ type: 'attach', kind: 'file' });
    expect(p.chips().map((c) => c.label)).toEqual(['src/invoice.ts']);
    pick = undefined;
    await p.controller.receive({ type: 'attach', kind: 'file' });
    expect(p.chips()).toHaveLength(1);
    expect(p.notices()).toEqual([]);
    // Taken off again.
    await p.controller.receive({ type: 'detach', id: p.chips()[0]!.id });
    expect(p.chips()).toEqual([]);
  });

  it('refuses what must not go to a model: outside the workspace, through a link, secrets, binaries, folders, a selection elsewhere', async () => {
    const p = setup({
      selection: () => ({ path: join(base, 'outside.txt'), name: 'outside.txt', startLine: 1, endLine: 1, text: 'not yours' }),
    });
    const refused: [unknown, RegExp][] = [
      [{ kind: 'file', path: '../outside.txt' }, /outside the workspace/],
      [{ kind: 'file', path: join(base, 'outside.txt') }, /outside the workspace/],
      [{ kind: 'file', path: 'link.txt' }, /outside the workspace through a symbolic link/],
      [{ kind: 'file', path: '.env' }, /environment file, which often holds secrets/],
      [{ kind: 'file', path: 'logo.png' }, /binary file/],
      [{ kind: 'file', path: 'src' }, /is a folder/],
      [{ kind: 'file', path: 'missing.ts' }, /There is no file missing.ts/],
      [{ kind: 'selection' }, /outside the workspace, so the panel does not attach it/],
    ];
    for (const [message, why] of refused) {
      await p.controller.receive({ type: 'attach', ...(message as object) });
      expect(p.notices().at(-1)).toMatch(why);
    }
    expect(p.notices()).toHaveLength(refused.length);
    expect(p.chips()).toEqual([]);
    expect(JSON.stringify(p.posted)).not.toContain('sk-live-secret');
  });

  it('cuts a long file at a line and says so, and refuses past the total', async () => {
    const p = setup();
    await p.controller.receive({ type: 'attach', kind: 'file', path: 'big.txt' });
    await p.controller.receive({ type: 'send', text: 'Summarise', attachments: [p.chips()[0]!.id] });
    await p.gated.reached(1);
    const prompt = p.gated.calls[0]!.prompt;
    expect(prompt).toContain('[big.txt is cut here: 60001 more characters were not attached; read the file for the rest.]');
    expect(prompt.length).toBeLessThan(MAX_ATTACHMENT_CHARS + 500);
    // Two files of nearly 40k fit; a third would pass the total and is refused with the figures.
    for (const name of ['b1.txt', 'b2.txt', 'b3.txt']) await writeFile(join(root, name), 'y'.repeat(MAX_ATTACHMENT_CHARS - 10));
    for (const name of ['b1.txt', 'b2.txt', 'b3.txt']) await p.controller.receive({ type: 'attach', kind: 'file', path: name });
    expect(p.chips().map((c) => c.label)).toEqual(['b1.txt', 'b2.txt']);
    expect(p.notices().at(-1)).toMatch(
      /^b3\.txt is not attached: with it the attachments would hold 119,970 characters, more than the 100,000 one message takes/,
    );
  });

  it('refuses a message whose attachment is gone, and sends nothing', async () => {
    const p = setup();
    await p.controller.receive({ type: 'send', text: 'with a ghost', attachments: ['a999'] });
    expect(p.notices()).toEqual(['An attachment of this message is no longer there; attach it again and send.']);
    expect(p.h.events).toEqual([]);
  });
});

describe('@agent', () => {
  it('has the named profile answer the turn, by id or display name, and says which agents exist for an unknown one', async () => {
    const p = setup();
    await p.controller.receive({ type: 'send', text: 'look at the tax', agent: 'Code Reviewer' });
    await p.gated.reached(1);
    expect(p.agents).toEqual(['reviewer']);
    expect(p.h.runs()[0]).toMatchObject({ agent: 'reviewer', depth: 0, task: 'look at the tax' });
    p.gated.calls[0]!.answer('fine');
    await p.h.engine.whenQuiet(p.h.runs()[0]!.threadId);
    await p.controller.receive({ type: 'send', text: 'and you?', agent: 'nobody' });
    await expect.poll(() => p.notices().at(-1)).toMatch(/There is no enabled agent "nobody". Available agents: reviewer/);
  });
});

describe('Insert at cursor', () => {
  it('inserts a code block into the active editor, or says to open one', async () => {
    const p = setup();
    await p.controller.receive({ type: 'insertAtCursor', text: 'const x = 1;' });
    expect(p.inserted).toEqual(['const x = 1;']);
    const none = setup({ insertAtCursor: async () => false });
    await none.controller.receive({ type: 'insertAtCursor', text: 'const x = 1;' });
    expect(none.notices()).toEqual([
      'No editor is open: open a file and put the cursor where the code should go, then choose Insert at cursor again.',
    ]);
  });
});

describe('the model picker', () => {
  it('offers what the first-run chooser offers while a model is set, and says where a pick was saved', async () => {
    const saved: string[] = [];
    const chooser = new ModelChooser({
      editorModels: async () => [{ vendor: 'copilot', family: 'gpt-4.1', name: 'GPT-4.1' }],
      ollamaUrl: 'http://127.0.0.1:9',
      probeOllama: async () => undefined,
      saveModel: async (spec) => (saved.push(spec), '.vscode/settings.json, where this workspace set it'),
      askKey: async () => undefined,
      storeKey: async () => {},
      askModelName: async () => undefined,
    });
    const h = makeEngine({ agents: {} });
    // The demo's scripted model is set: the picker still lists the choices.
    const { controller, posted } = panelOver({
      engine: h.engine,
      store: h.store,
      config: () => ({ ...config, model: 'scripted:.vscode/demo-script.json' }),
      models: chooser,
    });
    await controller.receive({ type: 'listModels' });
    expect(posted.at(-1)).toMatchObject({
      type: 'modelChoices',
      choices: [{ id: 'editor:copilot/gpt-4.1', label: 'GPT-4.1' }, { id: 'key:openai' }, { id: 'key:anthropic' }],
    });
    await controller.receive({ type: 'chooseModel', id: 'editor:copilot/gpt-4.1' });
    expect(saved).toEqual(['vscode-lm:copilot/gpt-4.1']);
    expect(posted.at(-1)).toEqual({
      type: 'notice',
      level: 'info',
      message:
        'The model is now vscode-lm:copilot/gpt-4.1 (saved as "subagents.model" in .vscode/settings.json, where this workspace set it).',
    });
  });
});
