import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { FrameLocator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CodeServer, REPO_ROOT } from './codeServer';
import { PeakMemory } from './procTree';
import { Workbench } from './workbench';

// The foundation's end-to-end test, in a real VS Code (code-server) with the packaged extension:
// a prompt goes in, the scripted supervisor delegates to two subagents, the answer and the run tree
// appear, the thread is on disk, and a window reload brings the same thread back.

const FIXTURE = join(REPO_ROOT, 'test', 'fixtures', 'demo-workspace');
const PROMPT = 'How are invoice totals computed, and is the rounding right?';
const CHILD_AGENTS = ['researcher', 'reviewer'];

/** The supervisor's final text in the script, as the lines a reader sees once markdown is rendered. */
function expectedAnswerLines(): string[] {
  const script = JSON.parse(readFileSync(join(FIXTURE, '.vscode', 'demo-script.json'), 'utf8')) as {
    agents: { supervisor: { text?: string }[] };
  };
  const final = script.agents.supervisor.at(-1)?.text;
  if (!final) throw new Error('The demo script has no final supervisor text.');
  return final
    .split('\n')
    .map((line) => normalize(line.replace(/^\s*(?:[-*]|\d+\.|#+)\s+/, '').replace(/\*\*|`/g, '')))
    .filter((line) => line !== '');
}

const normalize = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** The depth-1 runs in the tree, as {agent, state}, sorted by agent. */
async function childRuns(panel: FrameLocator): Promise<{ agent: string | null; state: string | null }[]> {
  const nodes = panel.locator('.run-tree [role="treeitem"][data-run-id][data-depth="1"]');
  const runs = await nodes.evaluateAll((els) => els.map((el) => ({ agent: el.getAttribute('data-agent'), state: el.getAttribute('data-state') })));
  return runs.sort((a, b) => String(a.agent).localeCompare(String(b.agent)));
}

/** Waits for the finished answer and both finished child runs, and checks the answer's text. */
async function expectFinishedThread(panel: FrameLocator): Promise<void> {
  const answer = panel.locator('.message.assistant[data-state="ok"]').last();
  await answer.waitFor({ timeout: 60_000 });
  const shown = normalize(await answer.innerText());
  for (const line of expectedAnswerLines()) expect(shown, 'the supervisor\'s answer should contain the scripted text').toContain(line);
  await expect
    .poll(() => childRuns(panel), { timeout: 30_000, message: 'two finished child runs at depth 1 in the run tree' })
    .toEqual(CHILD_AGENTS.map((agent) => ({ agent, state: 'ok' })));
}

/** JSONL thread files under the extension's workspace storage. */
function threadFiles(server: CodeServer): string[] {
  return server
    .extensionStorageDirs()
    .map((dir) => join(dir, 'threads'))
    .filter((dir) => existsSync(dir))
    .flatMap((dir) => readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((file) => join(dir, file)))
    .filter((file) => file.endsWith('.jsonl') && statSync(file).size > 0);
}

/** Widens the side bar so the README screenshot shows the tree comfortably, then shoots the side bar. */
async function savePanelScreenshot(workbench: Workbench): Promise<void> {
  await workbench.page.setViewportSize({ width: 1280, height: 1100 });
  const sidebar = workbench.page.locator('.part.sidebar');
  const box = await sidebar.boundingBox();
  if (box) {
    const y = box.y + box.height / 2;
    await workbench.page.mouse.move(box.x + box.width + 1, y);
    await workbench.page.mouse.down();
    await workbench.page.mouse.move(box.x + 520, y, { steps: 8 });
    await workbench.page.mouse.up();
  }
  await workbench.page.waitForTimeout(500);
  const path = join(REPO_ROOT, 'media', 'screenshot.png');
  await sidebar.screenshot({ path });
  await workbench.page.setViewportSize({ width: 1280, height: 800 });
  console.log(`e2e panel: screenshot saved to ${path}`);
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
    console.log(`e2e panel: ${((Date.now() - started) / 1000).toFixed(1)} s wall time, server start to shutdown (phases, s: ${phases.join(', ')}); ${memory.summary()}`);
  });

  it('delegates to two subagents, shows the answer and the run tree, and keeps the thread across a reload', async () => {
    const wb = workbench!;
    const srv = server!;
    const panel = await wb.step('open the Subagents view from the palette', () => wb.showPanel());
    mark('panel');

    await wb.step('type the prompt and send it', async () => {
      await panel.locator('#prompt').click();
      await wb.page.keyboard.type(PROMPT);
      await panel.locator('#send').click();
      await panel.locator('.message.user', { hasText: PROMPT }).waitFor({ timeout: 10_000 });
    });

    await wb.step('see the scripted answer and two finished child runs', () => expectFinishedThread(panel));
    mark('answered');
    if (process.env.SUBAGENTS_SCREENSHOT === '1') await wb.step('save the README screenshot', () => savePanelScreenshot(wb));

    await wb.step('find the thread on disk under workspaceStorage', () =>
      expect
        .poll(() => threadFiles(srv).length, { timeout: 10_000, message: `a .jsonl thread file under ${srv.userDataDir}/User/workspaceStorage/*/subagents-team.subagents/threads/` })
        .toBeGreaterThan(0),
    );

    await wb.step('reload the window and see the same thread again', async () => {
      await wb.reload();
      const reloaded = await wb.showPanel();
      await reloaded.locator('.message.user', { hasText: PROMPT }).waitFor({ timeout: 30_000 });
      await expectFinishedThread(reloaded);
    });
    mark('reloaded');
  });
});
