import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ollamaBaseUrl, probeOllama } from '../../../src/core/models/probeOllama';
import { ModelChooser, type KeyVendor, type ModelChooserDeps } from '../../../src/host/models/modelChooser';
import { PanelController } from '../../../src/host/panel/panelController';
import { PromptQueue } from '../../../src/core/engine/requests/promptQueue';
import { silentLogger } from '../../../src/core/ports';
import type { HostToWebview } from '../../../src/shared/protocol';
import { makeEngine } from '../core/engineHarness';

/** A fake Ollama on 127.0.0.1: answers /api/tags with the given models. */
let ollama: Server;
let ollamaUrl: string;
beforeAll(async () => {
  ollama = createServer((req, res) => {
    if (req.url !== '/api/tags') return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        models: [
          { name: 'llama3.2:latest', size: 1 },
          { name: 'qwen2.5-coder:7b', size: 2 },
        ],
      }),
    );
  });
  await new Promise<void>((resolve) => ollama.listen(0, '127.0.0.1', resolve));
  ollamaUrl = `http://127.0.0.1:${(ollama.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => ollama.close(() => resolve())));

/** A chooser over fakes; `answers` plays the user's replies to the key and model-name boxes. */
function chooser(
  options: {
    url?: string;
    editor?: { vendor: string; family: string; name: string }[];
    answers?: (string | undefined)[];
    demo?: string;
  } = {},
) {
  const saved: string[] = [];
  const keys: [KeyVendor, string][] = [];
  const asked: string[] = [];
  const answers = [...(options.answers ?? [])];
  const deps: ModelChooserDeps = {
    editorModels: async () => options.editor ?? [],
    ollamaUrl: options.url ?? ollamaUrl,
    // Generous: a loaded machine must not turn a live server into "not found"; a dead port fails at once anyway.
    probeOllama: (url) => probeOllama(url, 10_000),
    saveModel: async (spec) => {
      saved.push(spec);
      return 'your user settings';
    },
    askKey: async (vendor) => (asked.push(`key:${vendor}`), answers.shift()),
    storeKey: async (vendor, key) => void keys.push([vendor, key]),
    askModelName: async (vendor, suggestion) => (asked.push(`model:${vendor}:${suggestion}`), answers.shift()),
    demoScript: async () => options.demo,
  };
  return { chooser: new ModelChooser(deps), saved, keys, asked };
}

describe('ModelChooser (first run)', () => {
  it("offers the editor's models, a local Ollama's models and API keys, and saves a pick", async () => {
    const c = chooser({ editor: [{ vendor: 'copilot', family: 'gpt-4o', name: 'GPT-4o' }] });
    const { choices, notes } = await c.chooser.list();
    expect(notes).toEqual([]);
    expect(choices.map((x) => [x.group, x.id])).toEqual([
      ['editor', 'editor:copilot/gpt-4o'],
      ['local', 'ollama:llama3.2:latest'],
      ['local', 'ollama:qwen2.5-coder:7b'],
      ['key', 'key:openai'],
      ['key', 'key:anthropic'],
    ]);
    expect(await c.chooser.choose('editor:copilot/gpt-4o')).toEqual({ spec: 'vscode-lm:copilot/gpt-4o', savedIn: 'your user settings' });
    expect((await c.chooser.choose('ollama:llama3.2:latest'))?.spec).toBe(`openai-compatible:${ollamaUrl}/v1#llama3.2:latest`);
    expect(c.saved).toEqual(['vscode-lm:copilot/gpt-4o', `openai-compatible:${ollamaUrl}/v1#llama3.2:latest`]);
  });

  it('says what it looked for and did not find, and still offers API keys', async () => {
    const c = chooser({ url: 'http://127.0.0.1:9' });
    const { choices, notes } = await c.chooser.list();
    expect(choices.map((x) => x.id)).toEqual(['key:openai', 'key:anthropic']);
    expect(notes).toEqual([
      expect.stringMatching(/^No language model is available from the editor\./),
      'No Ollama answered at http://127.0.0.1:9. To use a local model, start Ollama and look again.',
    ]);
  });

  it('stores an entered key in secret storage, asks for the model, and writes only the spec', async () => {
    const c = chooser({ answers: [' sk-secret-123 ', 'gpt-4o-mini'] });
    await c.chooser.list();
    expect((await c.chooser.choose('key:openai'))?.spec).toBe('openai:gpt-4o-mini');
    expect(c.asked).toEqual(['key:openai', 'model:openai:gpt-4.1']);
    expect(c.keys).toEqual([['openai', 'sk-secret-123']]);
    expect(c.saved).toEqual(['openai:gpt-4o-mini']);
  });

  it('offers the demo model again in a workspace with the demo script, last, and saves its spec (issue 42 item 4)', async () => {
    const c = chooser({ url: 'http://127.0.0.1:9', demo: '.vscode/demo-script.json' });
    const { choices } = await c.chooser.list();
    expect(choices.map((x) => [x.group, x.id])).toEqual([
      ['key', 'key:openai'],
      ['key', 'key:anthropic'],
      ['demo', 'demo'],
    ]);
    expect((await c.chooser.choose('demo'))?.spec).toBe('scripted:.vscode/demo-script.json');
    // Without one, nothing is offered.
    expect((await chooser({ url: 'http://127.0.0.1:9' }).chooser.list()).choices.map((x) => x.id)).not.toContain('demo');
  });

  it('saves nothing when the user cancels, and refuses ids it never offered', async () => {
    const c = chooser({ answers: [undefined] });
    await c.chooser.list();
    expect(await c.chooser.choose('key:anthropic')).toBeUndefined();
    expect(c.saved).toEqual([]);
    await expect(c.chooser.choose('editor:evil/model')).rejects.toThrow(/no longer offered/);
  });
});

describe('the panel asks for choices and picks one through validated messages', () => {
  it('lists, chooses and confirms; a malformed pick is dropped', async () => {
    const c = chooser();
    const posted: HostToWebview[] = [];
    const h = makeEngine({ agents: {} }, { settings: { model: '' } });
    const controller = new PanelController({
      engine: h.engine,
      store: h.store,
      queue: new PromptQueue(h.engine),
      memory: { get: () => undefined, set: async () => {} },
      config: () => ({ model: '', agents: [], problems: [], trusted: true }),
      logger: silentLogger,
      models: c.chooser,
    });
    controller.attach((m) => posted.push(m));
    await controller.receive({ type: 'listModels' });
    expect(posted[0]).toMatchObject({
      type: 'modelChoices',
      choices: expect.arrayContaining([expect.objectContaining({ id: 'ollama:qwen2.5-coder:7b' })]),
    });
    await controller.receive({ type: 'chooseModel', id: 'ollama:qwen2.5-coder:7b' });
    expect(c.saved).toEqual([`openai-compatible:${ollamaUrl}/v1#qwen2.5-coder:7b`]);
    expect(posted[1]).toMatchObject({ type: 'notice', level: 'info', message: expect.stringContaining('qwen2.5-coder:7b') });
    await controller.receive({ type: 'chooseModel', spec: 'openai-compatible:http://evil#x' });
    expect(c.saved).toHaveLength(1);
    expect(posted).toHaveLength(2);
    controller.dispose();
  });
});

describe('ollamaBaseUrl', () => {
  it("follows OLLAMA_HOST like Ollama's own clients", () => {
    expect(ollamaBaseUrl({})).toBe('http://127.0.0.1:11434');
    expect(ollamaBaseUrl({ OLLAMA_HOST: '0.0.0.0:1234' })).toBe('http://0.0.0.0:1234');
    expect(ollamaBaseUrl({ OLLAMA_HOST: 'https://ollama.local/' })).toBe('https://ollama.local');
  });
});
