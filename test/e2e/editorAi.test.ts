import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS, CodeServer, REPO_ROOT } from './codeServer';
import { until } from './until';
import { Workbench } from './workbench';

// Our engine in the editor's AI ecosystem, in a real VS Code: a test extension registers a fake
// language model (vscode.lm.registerLanguageModelChatProvider; code-server ships no usable model
// offline) and a fake read-only tool; it invokes subagents_delegate through vscode.lm.invokeTool.
// The helper runs on the fake model through our vscode.lm adapter, calls the fake tool through
// vscode.lm.invokeTool (it lists it by name), and its answer comes back as the tool's result.
// The workspace sets no subagents.model: @subagents works only on the model picked in the chat.

const FIXTURE = join(REPO_ROOT, 'test', 'fixtures', 'editor-ai-workspace');
const FAKE_EXTENSION = join(REPO_ROOT, 'test', 'fixtures', 'fake-lm-extension');

describe("the editor's language models and tools in a real VS Code", () => {
  let server: CodeServer | undefined;
  let workbench: Workbench | undefined;
  /** Our threads' folders in workspace storage (one a workspace, once the store has written there). */
  const threadFolders = (): string[] => {
    const storage = join(server!.userDataDir, 'User', 'workspaceStorage');
    return readdirSync(storage)
      .map((d) => join(storage, d, 'subagents-team.subagents', 'threads'))
      .filter((dir) => existsSync(dir));
  };

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    const fakeVsix = join(ARTIFACTS, 'fake-lm.vsix');
    const vsce = join(REPO_ROOT, 'node_modules', '.bin', 'vsce');
    execFileSync(vsce, ['package', '--allow-missing-repository', '--skip-license', '-o', fakeVsix], { cwd: FAKE_EXTENSION, stdio: 'pipe' });
    // AI features on, so VS Code's chat (and @subagents in it) exists; the e2e profiles turn them off.
    server = await CodeServer.start({
      name: 'editor-ai',
      fixture: FIXTURE,
      moreVsix: [fakeVsix],
      userSettings: { 'chat.disableAIFeatures': false },
    });
    workbench = await Workbench.open(server);
  });

  afterAll(async () => {
    await workbench?.close();
    await server?.stop();
  });

  it('Copilot-style callers reach our agents: subagents_delegate runs the helper on the editor model, which uses an editor tool; the run is a thread titled by the task', async () => {
    const wb = workbench!;
    const result = join(server!.workspace, 'delegate-result.txt');
    await wb.step('invoke subagents_delegate through vscode.lm.invokeTool', async () => {
      await wb.runCommand('Fake LM: Delegate Through subagents_delegate');
    });
    await wb.step("confirm the run that prepareInvocation describes (VS Code's dialog outside a chat)", async () => {
      const dialog = wb.page.locator('.monaco-dialog-box');
      await dialog.filter({ hasText: 'Run the subagent "helper"?' }).waitFor({ timeout: 30_000 });
      expect(await dialog.innerText()).toContain('Say hello from the e2e');
      await dialog.getByRole('button', { name: 'Yes' }).click();
      await until('the tool returned', () => existsSync(result), 60_000);
    });
    const text = readFileSync(result, 'utf8');
    expect(text).toMatch(/^Subagent "helper" finished with status ok\. Its thread is t_\S+ in the Subagents panel\./);
    // The fake model called fake_echo (an editor tool, by vscode.lm.invokeTool) and answered with its result.
    expect(text).toContain('The echo said: echo: ping');
    const threadId = /Its thread is (\S+) in/.exec(text)![1]!;
    const findIndex = () =>
      threadFolders()
        .map((dir) => join(dir, 'index.json'))
        .find((f) => existsSync(f));
    // The index is a cache the store writes a moment after the run (debounced), not with it.
    await until('the thread index is written in workspace storage', () => findIndex() !== undefined);
    const index = findIndex();
    await until('the index names the thread', () => readFileSync(index!, 'utf8').includes(threadId));
    expect(readFileSync(index!, 'utf8')).toContain('"title":"Say hello from the e2e"');
  });

  it('@subagents in the chat view: /agents lists the profiles; a request runs the supervisor on the chat model, each step shows as progress, the answer streams, and the button opens its tree in our panel', async () => {
    const wb = workbench!;
    const chat = wb.page.locator('.interactive-session');
    await wb.step('ask @subagents /agents', async () => {
      await wb.runCommand('Fake LM: Ask @subagents in Chat');
      await chat.getByText('The supervisor delegates to these agents').first().waitFor({ timeout: 30_000 });
      // VS Code renders a chat answer progressively: the later lines of the list come a moment after the first.
      await expect.poll(() => chat.innerText(), { timeout: 15_000 }).toMatch(/helper: Helps with whatever it is asked\./);
    });
    await wb.step('send @subagents a request that delegates', async () => {
      await wb.runCommand('Fake LM: Send @subagents a Delegation in Chat');
      await chat.getByText('The echo said: echo: ping').first().waitFor({ timeout: 60_000 });
      // VS Code folds the progress lines (the start, the helper's start and end) into "Completed N steps".
      await chat
        .getByText(/Completed [3-9] steps/)
        .first()
        .waitFor({ timeout: 15_000 });
    });
    const panel = await wb.step('the button opens the thread in the Subagents panel', async () => {
      await chat.getByRole('button', { name: 'Show the run tree in Subagents' }).last().click();
      const shown = wb.panel();
      await shown.locator('.run-tree [role="treeitem"][data-agent="helper"]').first().waitFor({ timeout: 30_000 });
      return shown;
    });
    expect(await panel.locator('.turn').last().innerText()).toContain('delegate: check the echo');
  });

  it("@subagents while it works: each subagent is a progress line, and the chat's stop button cancels the run and its subagents", async () => {
    const wb = workbench!;
    const chat = wb.page.locator('.interactive-session');
    await wb.step('send @subagents a delegation whose subagent waits', async () => {
      await wb.runCommand('Fake LM: Send @subagents a Request That Waits in Chat');
      // VS Code shows the progress lines while the request runs (and folds them into "Completed N steps" after).
      await chat.getByText('helper: wait for cancel').first().waitFor({ timeout: 60_000 });
    });
    await wb.step("stop it with the chat's stop button", async () => {
      await wb.page
        .getByRole('button', { name: /^(Cancel|Stop)/ })
        .first()
        .click();
    });
    await wb.step('the supervisor and the helper end as cancelled in their threads', async () => {
      const threadFiles = () =>
        threadFolders().flatMap((dir) =>
          readdirSync(dir)
            .filter((f) => f.endsWith('.jsonl'))
            .map((f) => join(dir, f)),
        );
      const cancelled = () =>
        threadFiles()
          .flatMap((f) => readFileSync(f, 'utf8').split('\n').filter(Boolean))
          .map((line) => JSON.parse(line) as { kind: string; status?: string; runId: string })
          .filter((e) => e.kind === 'run.finished' && e.status === 'cancelled');
      await until('two runs finished as cancelled', () => cancelled().length >= 2, 30_000);
    });
  });

  it("@subagents and an approval: a subagent's write waits, the chat says where, and once approved from the notification the file is written and the answer comes", async () => {
    const wb = workbench!;
    const chat = wb.page.locator('.interactive-session');
    const note = join(server!.workspace, 'chat-note.txt');
    await wb.step('send @subagents a delegation whose subagent writes a file', async () => {
      await wb.runCommand('View: Show Explorer');
      await wb.runCommand('Fake LM: Send @subagents a Note to Write in Chat');
      await chat.getByText('Waiting for your approval of write_file in the Subagents panel').first().waitFor({ timeout: 60_000 });
      expect(existsSync(note)).toBe(false);
    });
    await wb.step('approve once from the notification: the file is written and the chat answers', async () => {
      const asked = wb.notification('writer wants to write chat-note.txt');
      await asked.waitFor({ timeout: 30_000 });
      await asked.locator('.monaco-button', { hasText: 'Approve once' }).click();
      await until('the note is written', () => existsSync(note) && readFileSync(note, 'utf8') === 'written from the chat\n', 30_000);
      await chat.getByRole('button', { name: 'Show the run tree in Subagents' }).last().waitFor({ timeout: 30_000 });
    });
  });
});
