import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChatServer, type ChatServer } from '../unit/fakes/openAiServer';
import { CodeServer, REPO_ROOT } from './codeServer';
import { Workbench } from './workbench';

// First run in a real VS Code (code-server, which has no language models): with no model set, the
// panel says the editor offers none, offers a local Ollama (a fake one on 127.0.0.1, found through
// OLLAMA_HOST) and API keys; entering a key stores it in secret storage and writes only the spec.
// Then a prompt goes to "OpenAI" (a local server, through OPENAI_BASE_URL) with that key, is rate
// limited, shows the retry as it waits, and Stop ends the wait at once.

const FIXTURE = join(REPO_ROOT, 'test', 'fixtures', 'first-run-workspace');
const KEY = 'sk-e2e-canary-4d2c8b19';

function userSettings(server: CodeServer): Record<string, unknown> {
  return JSON.parse(readFileSync(join(server.userDataDir, 'User', 'settings.json'), 'utf8')) as Record<string, unknown>;
}

describe('first run: choosing a model in a real VS Code', () => {
  let ollama: Server;
  let openai: ChatServer;
  let server: CodeServer | undefined;
  let workbench: Workbench | undefined;
  const previous = { OLLAMA_HOST: process.env.OLLAMA_HOST, OPENAI_BASE_URL: process.env.OPENAI_BASE_URL };

  beforeAll(async () => {
    ollama = createServer((req, res) => {
      if (req.url !== '/api/tags') return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ models: [{ name: 'llama3.2:latest' }] }));
    });
    await new Promise<void>((resolve) => ollama.listen(0, '127.0.0.1', resolve));
    openai = await startChatServer([{ status: 429, message: 'Rate limit reached for requests', headers: { 'retry-after': '30' } }]);
    // code-server (and so the extension host) inherits this environment.
    process.env.OLLAMA_HOST = `127.0.0.1:${(ollama.address() as AddressInfo).port}`;
    process.env.OPENAI_BASE_URL = openai.baseURL;
    server = await CodeServer.start({ name: 'first-run', fixture: FIXTURE });
    workbench = await Workbench.open(server);
  });

  afterAll(async () => {
    await workbench?.close();
    await server?.stop();
    for (const [name, value] of Object.entries(previous)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    await openai.close();
    await new Promise<void>((resolve) => ollama.close(() => resolve()));
  });

  it('offers what is available instead of failing, and saves the choice to user settings', async () => {
    const wb = workbench!;
    const srv = server!;
    const panel = await wb.step('open the Subagents view', () => wb.showPanel());
    const choice = panel.locator('#model-choice');

    await wb.step('see that the editor has no models, and the Ollama and API key offers', async () => {
      await choice
        .locator('.model-choice-note', { hasText: 'No language model is available from the editor' })
        .waitFor({ timeout: 30_000 });
      await choice.locator('[data-choice-id="ollama:llama3.2:latest"]').waitFor();
      await choice.locator('[data-choice-id="key:openai"]').waitFor();
      await choice.locator('[data-choice-id="key:anthropic"]').waitFor();
      expect(await choice.locator('[data-group="editor"]').count()).toBe(0);
    });

    await wb.step('choose "Enter an OpenAI API key", type the key and accept the suggested model', async () => {
      await choice.locator('[data-choice-id="key:openai"]').click();
      const input = wb.page.locator('.quick-input-widget input');
      await wb.page.locator('.quick-input-widget', { hasText: 'OpenAI API key' }).waitFor({ timeout: 15_000 });
      expect(await input.getAttribute('type')).toBe('password');
      await input.fill(KEY);
      await wb.page.keyboard.press('Enter');
      await wb.page.locator('.quick-input-widget', { hasText: 'Which OpenAI model?' }).waitFor({ timeout: 15_000 });
      expect(await input.inputValue()).toBe('gpt-4.1');
      await wb.page.keyboard.press('Enter');
    });

    await wb.step('find the spec, and only the spec, in the user settings; the offer is gone', async () => {
      await expect.poll(() => userSettings(srv)['subagents.model'], { timeout: 15_000 }).toBe('openai:gpt-4.1');
      expect(readFileSync(join(srv.userDataDir, 'User', 'settings.json'), 'utf8')).not.toContain(KEY);
      await choice.waitFor({ state: 'hidden', timeout: 15_000 });
    });

    const answer = panel.locator('.message.assistant').last();
    await wb.step('send a prompt: the stored key is used, and the rate limit shows as a retry', async () => {
      await panel.locator('#prompt').click();
      await wb.page.keyboard.type('Hello');
      await panel.locator('#send').click();
      await answer
        .locator('.message-status', { hasText: 'retry 1/4 in 30 s · 429: Rate limit reached for requests' })
        .waitFor({ timeout: 30_000 });
      expect(openai.requests.map((r) => r.headers.authorization)).toEqual([`Bearer ${KEY}`]);
    });

    await wb.step('press Stop: the 30 s wait ends at once and the run is cancelled', async () => {
      const stopped = Date.now();
      await panel.locator('#stop').click();
      await panel.locator('.message.assistant[data-state="cancelled"]').waitFor({ timeout: 10_000 });
      expect(Date.now() - stopped).toBeLessThan(10_000);
      expect(openai.requests).toHaveLength(1);
    });

    await wb.step('store another key with "Subagents: Set API Key" from the palette', async () => {
      await wb.runCommand('Subagents: Set API Key');
      const quickInput = wb.page.locator('.quick-input-widget');
      await quickInput.locator('.monaco-list-row', { hasText: 'Anthropic' }).first().click();
      await quickInput.filter({ hasText: 'Anthropic API key' }).waitFor({ timeout: 15_000 });
      await quickInput.locator('input').fill('sk-ant-e2e-canary');
      await wb.page.keyboard.press('Enter');
      await wb.page.locator('.notifications-toasts', { hasText: 'The Anthropic API key is stored' }).waitFor({ timeout: 15_000 });
      expect(readFileSync(join(srv.userDataDir, 'User', 'settings.json'), 'utf8')).not.toContain('sk-ant-e2e-canary');
    });
  });
});
