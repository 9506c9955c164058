import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { FrameLocator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CodeServer, REPO_ROOT } from './codeServer';
import { childRuns, fileLink, lastAnswer, prompt, runNode, sendButton } from './panelDom';
import { PeakMemory } from './procTree';
import { Workbench } from './workbench';

// The demo as a new user meets it, in a real VS Code (code-server) with the packaged extension: a
// prompt goes in, the scripted supervisor delegates to two subagents and starts a fixer in the
// background whose edit waits for approval; with the panel hidden the approval is a notification
// and a badge; approved there, the edit is written and announced; a file named in the answer opens
// at its line; the thread is on disk and a window reload brings it back. A question the script has
// no answer for is told the model is scripted.

const FIXTURE = join(REPO_ROOT, 'test', 'fixtures', 'demo-workspace');
const PROMPT = 'How are invoice totals computed, and is the rounding right?';

const normalize = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** The supervisor's scripted texts (markdown as a reader sees it), in order. */
function scriptedAnswers(): string[][] {
  const script = JSON.parse(readFileSync(join(FIXTURE, '.vscode', 'demo-script.json'), 'utf8')) as {
    agents: { supervisor: { text?: string; fallback?: boolean }[] };
  };
  return script.agents.supervisor
    .filter((turn) => turn.text && !turn.fallback)
    .map((turn) =>
      turn
        .text!.split('\n')
        .map((line) => normalize(line.replace(/^\s*(?:[-*]|\d+\.|#+)\s+/, '').replace(/\*\*|`|\*/g, '')))
        .filter((line) => line !== ''),
    );
}

async function expectText(panel: FrameLocator, lines: string[]): Promise<void> {
  const shown = normalize(await lastAnswer(panel).innerText());
  for (const line of lines) expect(shown, "the supervisor's answer should contain the scripted text").toContain(line);
}

/** JSONL thread files under the extension's workspace storage. */
function codeCaches(server: CodeServer): string[] {
  const dir = join(server.extensionGlobalStorage(), 'code-cache');
  return existsSync(dir) ? readdirSync(dir).filter((name) => /^engine-[0-9a-f]+\.v8cache$/.test(name)) : [];
}

function threadFiles(server: CodeServer): string[] {
  return server
    .extensionStorageDirs()
    .map((dir) => join(dir, 'threads'))
    .filter((dir) => existsSync(dir))
    .flatMap((dir) => readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((file) => join(dir, file)))
    .filter((file) => file.endsWith('.jsonl') && statSync(file).size > 0);
}

describe('the Subagents panel in a real VS Code', () => {
  const memory = new PeakMemory();
  const started = Date.now();
  /** Seconds from the start at which each phase ended, for the printed summary. */
  const phases: string[] = [];
  const mark = (phase: string): number => phases.push(`${phase} ${((Date.now() - started) / 1000).toFixed(1)}`);
  let server: CodeServer | undefined;
  let workbench: Workbench | undefined;

  beforeAll(async () => {
    server = await CodeServer.start({ name: 'panel', fixture: FIXTURE });
    mark('server healthy');
    memory.start(() => server?.pid);
    workbench = await Workbench.open(server);
    mark('workbench');
  });

  afterAll(async () => {
    await workbench?.close();
    await server?.stop();
    memory.stop();
    mark('shut down');
    console.log(
      `e2e panel: ${((Date.now() - started) / 1000).toFixed(1)} s wall time, server start to shutdown (phases, s: ${phases.join(', ')}); ${memory.summary()}`,
    );
  });

  it('delegates, asks for the background edit in a notification while the panel is hidden, opens a linked file at its line, and keeps the thread across a reload', async () => {
    const wb = workbench!;
    const srv = server!;
    const invoice = join(srv.workspace, 'src', 'invoice.ts');
    const [answer, report] = scriptedAnswers();
    const panel = await wb.step('open the Subagents view from the palette', () => wb.showPanel());
    mark('panel');

    await wb.step('type the prompt and send it', async () => {
      await prompt(panel).click();
      await wb.page.keyboard.type(PROMPT);
      await sendButton(panel).click();
      await panel.locator('.message.user', { hasText: PROMPT }).waitFor({ timeout: 10_000 });
    });

    await wb.step("see the answer, the two subagents' runs, and the fixer waiting on its node", async () => {
      await expect
        .poll(async () => normalize(await lastAnswer(panel).innerText()), { timeout: 60_000 })
        .toContain('I will report back when it is done.');
      await expectText(panel, answer!);
      await expect
        .poll(() => childRuns(panel), { timeout: 30_000, message: 'the researcher and the reviewer finished, the fixer still working' })
        .toEqual([
          { agent: 'fixer', state: 'running' },
          { agent: 'researcher', state: 'ok' },
          { agent: 'reviewer', state: 'ok' },
        ]);
      expect(readFileSync(invoice, 'utf8')).toContain('  return line.quantity * line.unitPrice;');
      await wb.statusBarItem('Approval waiting').waitFor({ timeout: 15_000 });
    });
    mark('answered');

    await wb.step('hide the panel: the approval is a badge on the view and a notification', async () => {
      await wb.runCommand('View: Show Explorer');
      await wb.page
        .locator(`.part.activitybar [aria-label^="Subagents"] .badge .badge-content`, { hasText: '1' })
        .waitFor({ timeout: 15_000 });
      await wb.notification('fixer wants to edit src/invoice.ts').waitFor({ timeout: 15_000 });
    });

    await wb.step('approve once from the notification: the edit is written and the fixer is announced', async () => {
      await wb.notification('fixer wants to edit src/invoice.ts').locator('.monaco-button', { hasText: 'Approve once' }).click();
      await expect
        .poll(() => readFileSync(invoice, 'utf8'), { timeout: 30_000 })
        .toContain('  return roundCents(line.quantity * line.unitPrice);');
      const shown = await wb.showPanel();
      await lastAnswer(shown, 'ok').waitFor({ timeout: 30_000 });
      await expectText(shown, report!);
      expect(await runNode(shown, 'fixer').getAttribute('data-state')).toBe('ok');
      await wb.page.locator(`.part.activitybar [aria-label^="Subagents"] .badge`).waitFor({ state: 'hidden', timeout: 10_000 });
    });
    mark('approved');

    await wb.step('click src/invoice.ts:18 in the answer: the editor opens the file at that line', async () => {
      const shown = wb.panel();
      await fileLink(shown, 'src/invoice.ts:18').click();
      await expect.poll(() => wb.activeEditorTitle(), { timeout: 15_000 }).toBe('invoice.ts');
      await expect.poll(() => wb.cursorPosition(), { timeout: 10_000 }).toMatch(/^Ln 18, Col 1/);
    });

    await wb.step('find the thread on disk under workspaceStorage', () =>
      expect
        .poll(() => threadFiles(srv).length, {
          timeout: 10_000,
          message: `.jsonl thread files under ${srv.userDataDir}/User/workspaceStorage/*/subagents-team.subagents/threads/`,
        })
        .toBeGreaterThan(3),
    );

    // The engine's code cache is written 20 s after the engine loaded (src/extension.ts); the reload loads from it.
    await wb.step("find the engine's code cache in global storage", () =>
      expect
        .poll(() => codeCaches(srv).length, {
          timeout: 40_000,
          message: `engine-*.v8cache under ${srv.extensionGlobalStorage()}/code-cache`,
        })
        .toBe(1),
    );

    await wb.step('reload the window and see the same thread again, the engine loaded from its code cache', async () => {
      await wb.reload();
      const reloaded = await wb.showPanel();
      await reloaded.locator('.message.user', { hasText: PROMPT }).waitFor({ timeout: 30_000 });
      await lastAnswer(reloaded, 'ok').waitFor({ timeout: 30_000 });
      await expectText(reloaded, report!);
      const loads = () => [...srv.extensionOutput().matchAll(/Engine loaded in (\d+) ms \(code cache: (\w+)\), started in (\d+) ms/g)];
      await expect.poll(() => loads().map((m) => m[2]), { timeout: 10_000 }).toEqual(['none', 'used']);
      console.log(
        `e2e panel: the engine loaded in ${loads()
          .map((m) => `${m[1]} ms (code cache: ${m[2]}; started in ${m[3]} ms)`)
          .join(', then ')}`,
      );
    });
    mark('reloaded');
  });

  it('tells a question the demo has no script for that the model is scripted, and how to pick a real one', async () => {
    const wb = workbench!;
    await wb.step('start a new thread from the palette: the prompt has the focus', async () => {
      await wb.runCommand('Subagents: New Thread');
      const panel = wb.panel();
      await expect.poll(() => panel.locator(':focus').getAttribute('id'), { timeout: 15_000 }).toBe('prompt');
      await expect.poll(() => panel.locator('.message').count(), { timeout: 15_000 }).toBe(0);
    });
    await wb.step('"Focus on Chat View" puts the keyboard in the prompt box', async () => {
      await wb.runCommand('View: Show Explorer');
      await wb.runCommand('Subagents: Focus on Chat View');
      await expect.poll(() => wb.panel().locator(':focus').getAttribute('id'), { timeout: 15_000 }).toBe('prompt');
    });
    await wb.step('ask something else: the answer says it is a scripted demo', async () => {
      const panel = wb.panel();
      await wb.page.keyboard.type('What is the capital of France?');
      await sendButton(panel).click();
      const answer = lastAnswer(panel, 'ok');
      await answer.waitFor({ timeout: 30_000 });
      expect(normalize(await answer.innerText())).toMatch(
        /This is a scripted demo: no model read your message\..*Subagents: Select Model…/,
      );
    });
  });
});
