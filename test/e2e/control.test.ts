import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  heldTextReply,
  startChatServer,
  textReply,
  toolCallReply,
  type ChatServer,
  type RecordedRequest,
  type Reply,
} from '../unit/fakes/openAiServer';
import { CodeServer, REPO_ROOT } from './codeServer';
import { lastAnswer, prompt, runNode, sendButton } from './panelDom';
import { Workbench } from './workbench';

// Stop on one child's node, in a real VS Code: the supervisor delegates one task to three
// subagents; one of them has written part of its report and is still going when the user stops it
// from its node. The other two finish, the supervisor is not stopped, and its answer, written by a
// model that reads the tool result it got (a real HTTP model server run by this test), quotes what
// the stopped child had found.

const FIXTURE = join(REPO_ROOT, 'test', 'fixtures', 'control-workspace');
const PARTIAL = 'beta so far: checked parse.ts, the slice drops the last field (an off-by-one on line 2).';

/** Who is calling, from the system prompt: each agent's instructions name it. */
function caller(request: RecordedRequest): string {
  const system = request.body.messages?.find((m) => m.role === 'system')?.content;
  const text = typeof system === 'string' ? system : JSON.stringify(system ?? '');
  if (text.startsWith('You are the supervisor')) return 'supervisor';
  return /^You are (\w+)\./.exec(text)?.[1] ?? 'unknown';
}

/** The supervisor's answer once its delegate_task result is in the prompt: it reads beta's entry. */
function supervisorAnswer(request: RecordedRequest): Reply {
  const tool = request.body.messages?.find((m) => m.role === 'tool');
  if (!tool)
    return toolCallReply('call_1', 'delegate_task', [
      JSON.stringify({ task: 'Check parse.ts for bugs', agents: ['alpha', 'beta', 'gamma'] }),
    ]);
  const results = JSON.parse(String(tool.content)) as { agent: string; status: string; output: string; error?: string }[];
  const beta = results.find((r) => r.agent === 'beta')!;
  const found = /<<<subagent-output \w+>>>\n([\s\S]*)\n<<<end subagent-output/.exec(beta.output)?.[1] ?? '(nothing)';
  return textReply([`Beta ended ${beta.status} (${beta.error ?? 'no reason given'}). `, `Before it was stopped it had found: ${found}`]);
}

function reply(request: RecordedRequest): Reply {
  switch (caller(request)) {
    case 'supervisor':
      return supervisorAnswer(request);
    case 'alpha':
      return textReply(['alpha: the README is accurate.']);
    case 'gamma':
      return textReply(['gamma: the package.json scripts work.']);
    case 'beta':
      // Part of a report, then nothing more until the call is given up.
      return heldTextReply([PARTIAL.slice(0, 40), PARTIAL.slice(40)]);
    default:
      return { status: 500, message: `the test server does not know this caller` };
  }
}

describe('Stop on one child in a real VS Code', () => {
  let models: ChatServer | undefined;
  let fixture: string | undefined;
  let server: CodeServer | undefined;
  let workbench: Workbench | undefined;

  beforeAll(async () => {
    models = await startChatServer();
    models.replies = Array.from({ length: 20 }, () => reply);
    fixture = mkdtempSync(join(tmpdir(), 'subagents-control-fixture-'));
    cpSync(FIXTURE, fixture, { recursive: true });
    const agents = Object.fromEntries(
      ['alpha', 'beta', 'gamma'].map((name) => [
        name,
        { description: `Checks one part (${name}).`, instructions: `You are ${name}. Check what you are asked to and report.` },
      ]),
    );
    mkdirSync(join(fixture, '.vscode'), { recursive: true });
    writeFileSync(
      join(fixture, '.vscode', 'settings.json'),
      JSON.stringify({ 'subagents.model': `openai-compatible:${models.baseURL}#test-model`, 'subagents.agents': agents }, null, 2),
    );
    server = await CodeServer.start({ name: 'control', fixture });
    workbench = await Workbench.open(server);
  });

  afterAll(async () => {
    await workbench?.close();
    await server?.stop();
    await models?.close();
    if (fixture) rmSync(fixture, { recursive: true, force: true });
  });

  it("stops one of three children from its node; the supervisor goes on and its answer has that child's partial result", async () => {
    const wb = workbench!;
    const panel = await wb.step('open the Subagents view', () => wb.showPanel());
    await wb.step('send the prompt', async () => {
      await prompt(panel).click();
      await wb.page.keyboard.type('Review parse.ts with three agents');
      await sendButton(panel).click();
    });

    const node = (agent: string) => runNode(panel, agent);
    const beta = node('beta');
    await wb.step("open beta's node and see it working, with part of its report", async () => {
      await beta.locator(':scope > .run-header').waitFor({ timeout: 60_000 });
      if ((await beta.getAttribute('aria-expanded')) !== 'true') await beta.locator(':scope > .run-header').click();
      await beta.locator(':scope > .run-result .run-output', { hasText: 'off-by-one' }).waitFor({ timeout: 60_000 });
      expect(await beta.getAttribute('data-state')).toBe('running');
    });

    await wb.step("press Stop in beta's line", async () => {
      await beta.locator(':scope > .run-header .run-actions .run-stop').click();
    });

    await wb.step("see the supervisor's answer quote what beta had found, and only beta stopped", async () => {
      const answer = lastAnswer(panel, 'ok');
      await answer.waitFor({ timeout: 60_000 });
      const text = (await answer.innerText()).replace(/\s+/g, ' ');
      expect(text).toContain('Beta ended cancelled (Stopped by the user (the Stop button on its node in the panel).');
      expect(text).toContain(
        'Before it was stopped it had found: beta so far: checked parse.ts, the slice drops the last field (an off-by-one on line 2).',
      );
      await expect.poll(() => beta.getAttribute('data-state'), { timeout: 15_000 }).toBe('cancelled');
      expect(await node('alpha').getAttribute('data-state')).toBe('ok');
      expect(await node('gamma').getAttribute('data-state')).toBe('ok');
    });

    await wb.step('open "Why this config?" on beta and see where its settings came from', async () => {
      await beta.locator(':scope > .run-body > .run-controls .run-why').click();
      const fields = beta.locator(':scope > .run-body > .run-controls .config-fields');
      await fields.waitFor({ timeout: 15_000 });
      const shown = await fields.innerText();
      expect(shown).toContain('.vscode/settings.json');
      expect(shown).toContain(`openai-compatible:${models!.baseURL}#test-model`);
    });
  });
});
