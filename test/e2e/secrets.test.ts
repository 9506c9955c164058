import { randomUUID } from 'node:crypto';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChatServer, textReply, toolCallReply, type ChatServer, type RecordedRequest, type Reply } from '../unit/fakes/openAiServer';
import { CodeServer, REPO_ROOT } from './codeServer';
import { lastAnswer, prompt, sendButton } from './panelDom';
import { Workbench } from './workbench';

// Issue 40 item 4 in the real extension host: code-server starts with an API key in its
// environment (SUBAGENTS_API_KEY, the openai-compatible key, which the model server of this test
// receives). With the OS sandbox off, a command an agent runs reads the extension host's
// /proc/<pid>/environ and its own environment: it sees a marker variable started beside the key
// and never the key (the extension blanks it in /proc at activation and keeps it out of commands).

const FIXTURE = join(REPO_ROOT, 'test', 'fixtures', 'control-workspace');
const KEY = `sk-e2e-${randomUUID()}`;
const MARKER = `marker-${randomUUID()}`;
const SHOWN = /^(E2E_ENV_MARKER|SUBAGENTS_API_KEY)=/;

/** A process's start-up environment, or '' when it cannot be read. */
function environOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/environ`, 'latin1');
  } catch {
    return '';
  }
}

/** The extension host of this run: the process started with our marker whose command line says extensionHost. */
function extensionHostPid(): number {
  const pids = readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => {
      try {
        return (
          readFileSync(`/proc/${pid}/cmdline`, 'latin1').includes('extensionHost') && environOf(pid).includes(`E2E_ENV_MARKER=${MARKER}`)
        );
      } catch {
        return false;
      }
    });
  if (pids.length !== 1) throw new Error(`expected one extension host of this run, found ${pids.length}: ${pids.join(', ')}`);
  return pids[0]!;
}

describe("a command cannot read the extension's API keys (issue 40, item 4)", () => {
  let models: ChatServer | undefined;
  let fixture: string | undefined;
  let server: CodeServer | undefined;
  let workbench: Workbench | undefined;
  let hostPid = 0;

  /** The supervisor reads the extension host's /proc environ and its own environment, then answers. */
  function reply(request: RecordedRequest): Reply {
    if (request.body.messages?.at(-1)?.role === 'tool') return textReply(['Read both environments.']);
    hostPid = extensionHostPid();
    const keep = `grep -E '${SHOWN.source}'`;
    const command = `tr '\\0' '\\n' < /proc/${hostPid}/environ | ${keep} | sed 's/^/host: /'; env | ${keep} | sed 's/^/own: /'`;
    return toolCallReply('call_env', 'run_command', [JSON.stringify({ command })]);
  }

  beforeAll(async () => {
    models = await startChatServer();
    models.replies = Array.from({ length: 10 }, () => reply);
    fixture = mkdtempSync(join(tmpdir(), 'subagents-secrets-fixture-'));
    cpSync(FIXTURE, fixture, { recursive: true });
    server = await CodeServer.start({
      name: 'secrets',
      fixture,
      env: { SUBAGENTS_API_KEY: KEY, E2E_ENV_MARKER: MARKER },
      // The user's own settings: their model (so the key may go to it), no OS sandbox, no questions.
      userSettings: {
        'subagents.model': `openai-compatible:${models.baseURL}#test-model`,
        'subagents.sandbox.mode': 'off',
        'subagents.approval': 'trust',
      },
    });
    workbench = await Workbench.open(server);
  });

  afterAll(async () => {
    await workbench?.close();
    await server?.stop();
    await models?.close();
    if (fixture) rmSync(fixture, { recursive: true, force: true });
  });

  it("a command sees the marker in the extension host's /proc environ and in its own env, never the key", async () => {
    const wb = workbench!;
    // The key was given: code-server itself (not ours to clean) still has it in its start-up block.
    expect(environOf(server!.pid!)).toContain(`SUBAGENTS_API_KEY=${KEY}`);
    const panel = await wb.step('open the Subagents view', () => wb.showPanel());
    await wb.step('send the prompt and let the supervisor run its command', async () => {
      await prompt(panel).click();
      await wb.page.keyboard.type('Show me the environment');
      await sendButton(panel).click();
      await lastAnswer(panel, 'ok').waitFor({ timeout: 60_000 });
    });

    await wb.step('the model got the output: the marker from both, the key from neither', async () => {
      // The key still works for the extension itself: the model server got it.
      expect(models!.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
      const result = models!.requests.at(-1)!.body.messages!.find((m) => m.role === 'tool');
      const output = JSON.stringify(result?.content ?? '');
      expect(output).toContain(`host: E2E_ENV_MARKER=${MARKER}`);
      expect(output).toContain(`own: E2E_ENV_MARKER=${MARKER}`);
      expect(output).toContain(`host: SUBAGENTS_API_KEY=${'*'.repeat(KEY.length)}`);
      expect(output).not.toContain('own: SUBAGENTS_API_KEY');
      expect(output).not.toContain(KEY);
      expect(environOf(hostPid)).not.toContain(KEY);
    });

    await wb.step("the command's node shows the same output, without the key", async () => {
      const command = panel.locator('.turn .run-tree > .tool-call[data-tool="run_command"]');
      expect(await command.getAttribute('data-state')).toBe('done');
      await command.locator('.tool-row').click();
      const shown = command.locator('.tool-detail');
      await shown.waitFor({ timeout: 15_000 });
      const text = await shown.innerText();
      expect(text).toContain(`host: E2E_ENV_MARKER=${MARKER}`);
      expect(text).toContain(`own: E2E_ENV_MARKER=${MARKER}`);
      expect(text).not.toContain(KEY);
    });
  });
});
