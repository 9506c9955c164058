import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Engine } from '../../../src/core/engine/engine';
import { DEFAULT_SETTINGS, type EngineSettings } from '../../../src/core/config/settings/engineSettings';
import { nodeWorkspace } from '../../../src/core/engine/nodeWorkspace';
import { readApiKeys } from '../../../src/core/models/apiKeys';
import { createModelResolver } from '../../../src/core/models/createModelResolver';
import type { Logger, Secrets } from '../../../src/core/ports';
import { JsonlThreadStore } from '../../../src/core/storage/threads/jsonlThreadStore';
import { ModelChooser } from '../../../src/host/models/modelChooser';
import { PanelController } from '../../../src/host/panel/panelController';
import { PromptQueue } from '../../../src/core/engine/requests/promptQueue';
import type { RunEvent } from '../../../src/shared/events';
import type { HostToWebview } from '../../../src/shared/protocol';
import { startChatServer, textReply, type ChatServer } from '../fakes/openAiServer';

// A key goes in through the first-run chooser, is used for real requests against a real HTTP
// server (one rate limited, one refused), and must appear nowhere but in the secret store and the
// Authorization header: not in settings, log lines, thread files, RunEvents or webview messages.

const KEY = 'sk-leak-canary-7f3a9c1e5b';

describe('an API key stays secret', () => {
  let server: ChatServer;
  let dir: string;
  beforeAll(async () => {
    server = await startChatServer([
      { status: 429, message: 'Rate limit reached for requests', headers: { 'retry-after-ms': '10' } },
      textReply(['All ', 'good.']),
      // Real providers echo a masked key in a 401; the mask is fine, the key is not.
      { status: 401, message: 'Incorrect API key provided: sk-lea*****9c1e5b.' },
      textReply(['Through ', 'the panel.']),
    ]);
    dir = await mkdtemp(join(tmpdir(), 'key-leak-'));
  });
  afterAll(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('never shows up in settings, logs, thread files, events or webview messages', async () => {
    const logLines: string[] = [];
    const logger: Logger = {
      debug: (m) => logLines.push(m),
      info: (m) => logLines.push(m),
      warn: (m) => logLines.push(m),
      error: (m) => logLines.push(m),
    };
    const vault = new Map<string, string>();
    const secrets: Secrets = { get: async (name) => vault.get(name) };
    const settingsWritten: string[] = [];
    let settings: EngineSettings = { ...DEFAULT_SETTINGS };

    // First run: the user enters the key for the server; the spec, not the key, goes to settings.
    const spec = `openai-compatible:${server.baseURL}#m1`;
    const chooser = new ModelChooser({
      editorModels: async () => [],
      ollamaUrl: 'http://127.0.0.1:9',
      probeOllama: async () => undefined,
      saveModel: async (s) => {
        settingsWritten.push(s);
        return 'your user settings';
      },
      askKey: async () => KEY,
      storeKey: async (vendor, key) => void vault.set(vendor, key),
      askModelName: async () => 'gpt-4.1',
    });

    const store = new JsonlThreadStore({ dir, logger });
    const engine = new Engine({
      store,
      workspace: nodeWorkspace({ root: dir }),
      profiles: () => ({ profiles: new Map(), problems: [] }),
      settings: () => settings,
      createModelResolver: async () =>
        createModelResolver({
          workspaceRoot: dir,
          keyAllowed: () => true,
          apiKey: await readApiKeys(secrets, [settings.model]),
          specs: [settings.model],
        }),
      logger,
    });
    const events: RunEvent[] = [];
    engine.onEvent((e) => events.push(e));
    const posted: HostToWebview[] = [];
    const controller = new PanelController({
      engine,
      store,
      queue: new PromptQueue(engine),
      memory: { get: () => undefined, set: async () => {} },
      config: () => ({ model: settings.model, agents: [], problems: [], trusted: true }),
      logger,
      models: chooser,
      batchIntervalMs: 1,
    });
    let panelIdle = () => {};
    controller.attach((m) => {
      posted.push(m);
      if (m.type === 'busy' && !m.busy) panelIdle();
    });

    await controller.receive({ type: 'ready' });
    await controller.receive({ type: 'listModels' });
    await controller.receive({ type: 'chooseModel', id: 'key:openai' });
    expect(vault.get('openai')).toBe(KEY);
    // The same key for the server, as "Subagents: Set API Key" stores it.
    vault.set('openai-compatible', KEY);
    settings = { ...settings, model: spec };

    const first = await engine.send({ prompt: 'check the build' });
    expect((await first.done).status).toBe('ok');
    const second = await engine.send({ threadId: first.threadId, prompt: 'and again' });
    const failed = await second.done;
    expect(failed.status).toBe('error');
    expect(failed.error).toMatch(/refused the API key \(401/);
    const idle = new Promise<void>((resolve) => (panelIdle = resolve));
    await controller.receive({ type: 'send', text: 'through the panel' });
    await idle;
    await store.flush();

    // The key was really used, and the run really retried and failed.
    expect(server.requests.map((r) => r.headers.authorization)).toEqual(Array(4).fill(`Bearer ${KEY}`));
    expect(events.some((e) => e.kind === 'run.retrying')).toBe(true);
    expect(posted.some((m) => m.type === 'events')).toBe(true);

    const files = await readdir(dir, { recursive: true });
    const fileTexts = await Promise.all(
      files.filter((f) => f.endsWith('.jsonl') || f.endsWith('.json')).map((f) => readFile(join(dir, f), 'utf8')),
    );
    expect(fileTexts.length).toBeGreaterThan(1);
    const places = {
      settings: JSON.stringify([settingsWritten, settings]),
      logs: logLines.join('\n'),
      threadFiles: fileTexts.join('\n'),
      events: JSON.stringify(events),
      webview: JSON.stringify(posted),
    };
    for (const [place, text] of Object.entries(places)) expect(text.includes(KEY), `the key leaked into ${place}`).toBe(false);
    expect(settingsWritten).toEqual(['openai:gpt-4.1']);
    controller.dispose();
    store.dispose();
  });
});
