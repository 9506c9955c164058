import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CodeServer, REPO_ROOT } from './codeServer';
import { lastAnswer, prompt, runNode, sendButton } from './panelDom';
import { Workbench } from './workbench';

// Issue 44 in a real VS Code: a profile of the user's settings that is an external agent over ACP
// (`"acp": {"command": "node", "args": [fake agent]}`; the fake is built with the SDK's agent side
// and runs as a real process). The scripted supervisor delegates to it; the agent reports a tool
// call and asks session/request_permission for it; the panel shows the call on the child's node
// with Approve / Deny, and after Approve the agent finishes and the node reads done.

const FIXTURE = join(REPO_ROOT, 'test', 'fixtures', 'control-workspace');
const FAKE_AGENT = join(REPO_ROOT, 'test', 'fixtures', 'acp', 'fakeAgent.mjs');

describe('an ACP agent as a subagent in a real VS Code (issue 44)', () => {
  let fixture: string | undefined;
  let server: CodeServer | undefined;
  let workbench: Workbench | undefined;

  beforeAll(async () => {
    fixture = mkdtempSync(join(tmpdir(), 'subagents-acp-fixture-'));
    cpSync(FIXTURE, fixture, { recursive: true });
    mkdirSync(join(fixture, '.vscode'), { recursive: true });
    writeFileSync(
      join(fixture, '.vscode', 'acp-script.json'),
      JSON.stringify({
        agents: {
          supervisor: [
            { toolCalls: [{ tool: 'delegate_task', input: { task: 'Push the branch. MODE:tool-permission', agents: ['fake'] } }] },
            { text: 'The fake agent pushed.' },
          ],
        },
      }),
    );
    writeFileSync(join(fixture, '.vscode', 'settings.json'), JSON.stringify({ 'subagents.model': 'scripted:.vscode/acp-script.json' }));
    // Declared by the user (not the workspace): it starts as declared, without a consent prompt.
    server = await CodeServer.start({
      name: 'acp',
      fixture,
      userSettings: {
        'subagents.agents': { fake: { description: 'A fake external agent over ACP', acp: { command: 'node', args: [FAKE_AGENT] } } },
      },
    });
    workbench = await Workbench.open(server);
  });

  afterAll(async () => {
    await workbench?.close();
    await server?.stop();
    if (fixture) rmSync(fixture, { recursive: true, force: true });
  });

  it("shows the external agent's tool call and its permission request on its node; Approve lets it finish", async () => {
    const wb = workbench!;
    const panel = await wb.step('open the Subagents view', () => wb.showPanel());
    await wb.step('send the prompt', async () => {
      await prompt(panel).click();
      await wb.page.keyboard.type('Push the branch');
      await sendButton(panel).click();
    });

    const fake = runNode(panel, 'fake');
    const call = fake.locator('.tool-call[data-tool="acp:execute"]');
    await wb.step("see the agent's tool call on its node, waiting with Approve and Deny", async () => {
      await call.locator('.approve').waitFor({ timeout: 60_000 });
      expect(await call.count()).toBe(1);
      expect(await call.getAttribute('data-tool-call-id')).toBe('acp_p2');
      // The row reads the agent's own title; the approval names the command it asks to run.
      expect(await call.locator('.tool-summary').innerText()).toBe('Run git push --force · waiting for your approval');
      expect(await call.locator('.approval-reason').innerText()).toContain('git push --force');
      expect(await call.locator('.deny').isVisible()).toBe(true);
      expect(await fake.getAttribute('data-state')).toBe('running');
    });

    await wb.step('approve: the agent gets "allow", ends its call, and the node reads done', async () => {
      await call.locator('.approve').click();
      await expect.poll(() => fake.getAttribute('data-state'), { timeout: 60_000 }).toBe('ok');
      expect(await call.getAttribute('data-state')).toBe('done');
      expect(await call.locator('.tool-summary').innerText()).toBe('Run git push --force');
      expect(await call.locator('.approval-outcome').getAttribute('class')).toContain('approved');
      expect(await fake.locator('.run-state').first().textContent()).toBe('done');
      expect(await fake.locator(':scope > .run-result .run-output').innerText()).toContain('permission: yes');
      await lastAnswer(panel, 'ok').waitFor({ timeout: 60_000 });
      expect(await lastAnswer(panel, 'ok').locator('.message-body').innerText()).toContain('The fake agent pushed.');
    });
  });
});
