import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Engine } from '../../../../src/core/engine/engine';
import { DEFAULT_SETTINGS } from '../../../../src/core/config/settings/engineSettings';
import { createModelResolver } from '../../../../src/core/models/createModelResolver';
import { nodeWorkspace } from '../../../../src/core/engine/nodeWorkspace';
import type { Logger } from '../../../../src/core/ports';
import { Redactor } from '../../../../src/core/access/secrets/redactor';
import { JsonlThreadStore } from '../../../../src/core/storage/threads/jsonlThreadStore';
import type { RunEvent } from '../../../../src/shared/events';
import { startChatServer, textReply, toolCallReply, type ChatServer } from '../../fakes/openAiServer';

// A provider that echoes the Authorization header into its error bodies, a file holding the key,
// and a model that repeats the key in streamed pieces: the key must reach the provider's
// Authorization header and nothing else (not events, thread files, logs, nor what the model reads).

const KEY = 'sk-echo-canary-5d1f7a2b9c';

let server: ChatServer;
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'secrets-'));
  await mkdir(join(dir, 'ws'));
  await writeFile(join(dir, 'ws', 'notes.txt'), `deploy token: ${KEY}\n`);
  server = await startChatServer([
    toolCallReply('c1', 'read_file', ['{"path":"notes.txt"}']),
    (request) => ({ status: 500, message: `upstream failed for ${request.headers.authorization}`, headers: { 'retry-after-ms': '5' } }),
    textReply(['The token is ', KEY.slice(0, 9), KEY.slice(9), '.']),
    (request) => ({ status: 400, message: `invalid request sent with ${request.headers.authorization}` }),
  ]);
});
afterEach(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

describe('secrets never leave', () => {
  it('an echoed Authorization header, a file and streamed text: the key is replaced everywhere it could show', async () => {
    const logLines: string[] = [];
    const logger: Logger = {
      debug: (m) => logLines.push(m),
      info: (m) => logLines.push(m),
      warn: (m) => logLines.push(m),
      error: (m) => logLines.push(m),
    };
    const store = new JsonlThreadStore({ dir: join(dir, 'threads'), logger });
    const spec = `openai-compatible:${server.baseURL}#m`;
    const engine = new Engine({
      store,
      workspace: nodeWorkspace({ root: join(dir, 'ws') }),
      profiles: () => ({ profiles: new Map(), problems: [] }),
      settings: () => ({ ...DEFAULT_SETTINGS, model: spec }),
      createModelResolver: () => createModelResolver({ workspaceRoot: dir, keyAllowed: () => true, apiKey: () => KEY, specs: [spec] }),
      logger,
      // The CLI's redactor: its keys come from the environment.
      redactor: Redactor.fromEnvironment({ SUBAGENTS_API_KEY: KEY }),
    });
    const events: RunEvent[] = [];
    engine.onEvent((e) => {
      events.push(e);
      logger.info(`event ${JSON.stringify(e)}`);
    });
    const first = await engine.send({ prompt: 'read the notes' });
    const ok = await first.done;
    const second = await engine.send({ threadId: first.threadId, prompt: 'again' });
    const failed = await second.done;
    await engine.whenQuiet(first.threadId);
    await store.flush();
    store.dispose();

    // The key really went out, where it belongs, and the provider really echoed it.
    expect(server.requests.map((r) => r.headers.authorization)).toEqual(Array(4).fill(`Bearer ${KEY}`));
    expect(ok.status).toBe('ok');
    expect(ok.output).toBe('The token is [redacted SUBAGENTS_API_KEY].');
    const retry = events.find((e) => e.kind === 'run.retrying');
    expect(retry?.kind === 'run.retrying' && retry.error).toMatch(/upstream failed for Bearer \[redacted SUBAGENTS_API_KEY\]/);
    expect(failed.status).toBe('error');
    expect(failed.error).toMatch(/\[redacted SUBAGENTS_API_KEY\]/);
    const read = events.find((e) => e.kind === 'tool.finished' && e.tool === 'read_file');
    expect(JSON.stringify(read)).toContain('deploy token: [redacted SUBAGENTS_API_KEY]');

    const files = (await readdir(join(dir, 'threads'), { recursive: true, withFileTypes: true })).filter((e) => e.isFile());
    expect(files.map((e) => e.name)).toContain('index.json');
    const threadFiles = (await Promise.all(files.map((e) => readFile(join(e.parentPath, e.name), 'utf8')))).join('\n');
    const places = {
      events: JSON.stringify(events),
      threadFiles,
      logs: logLines.join('\n'),
      // What the model was sent back: the tool result and the conversation, never the key.
      modelRequests: server.requests.map((r) => r.raw).join('\n'),
    };
    for (const [place, text] of Object.entries(places)) expect(text.includes(KEY), `the key leaked into ${place}`).toBe(false);
  });
});
