import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processesTagged } from '../unit/cli/mcpHarness';
import { CodeServer, REPO_ROOT } from './codeServer';
import { until } from './until';
import { Workbench } from './workbench';

// An MCP server the workspace declares (.vscode/mcp.json) in a real VS Code: it starts only once
// the user approved it on the run's node, its tool runs, the approval is remembered across a
// reload, and the server's process ends with the window, and so does the sandbox it ran in (its
// proxy's sockets leave the temp folder).

const FIXTURE = join(REPO_ROOT, 'test', 'fixtures', 'mcp-workspace');
const SERVER = join(REPO_ROOT, 'test', 'fixtures', 'mcp', 'fixtureServer.mjs');

describe('MCP servers in a real VS Code', () => {
  let server: CodeServer | undefined;
  let workbench: Workbench | undefined;
  const tag = randomUUID();

  beforeAll(async () => {
    server = await CodeServer.start({ name: 'mcp', fixture: FIXTURE });
    mkdirSync(join(server.workspace, '.vscode'), { recursive: true });
    writeFileSync(
      join(server.workspace, '.vscode', 'mcp.json'),
      JSON.stringify({ servers: { fx: { type: 'stdio', command: process.execPath, args: [SERVER, `--tag=${tag}`] } } }),
    );
    workbench = await Workbench.open(server);
  });

  afterAll(async () => {
    await workbench?.close();
    await server?.stop();
  });

  it('asks on the run node before starting it, runs its tool, remembers the answer, and stops it with the window', async () => {
    const wb = workbench!;
    let panel = await wb.step('open the Subagents view', () => wb.showPanel());
    const send = async () => {
      await panel.locator('#prompt').click();
      await wb.page.keyboard.type('Echo through the fixture');
      await panel.locator('#send').click();
    };
    await wb.step('send the prompt', send);
    // The supervisor's own calls sit at the top of its turn's tree, under its answer.
    const turn = (n: number) => panel.locator('.turn .run-tree').nth(n);
    await wb.step('see the server approval on the node, with the server not started', async () => {
      await turn(0).locator(':scope > .tool-call[data-tool="mcp_server"] .approve').waitFor({ timeout: 60_000 });
      expect(processesTagged(tag)).toEqual([]);
    });
    await wb.step('approve it and see the tool run', async () => {
      await turn(0).locator(':scope > .tool-call[data-tool="mcp_server"] .approve').click();
      await panel.locator('.message.assistant[data-state="ok"]').first().waitFor({ timeout: 60_000 });
      expect(await turn(0).locator(':scope > .tool-call[data-tool="mcp__fx__echo"]').getAttribute('data-state')).toBe('done');
      // Running (in the OS sandbox, its wrapper processes carry the tag too).
      expect(processesTagged(tag).length).toBeGreaterThan(0);
    });
    // The sandbox the server runs in has its proxy's sockets in the extension host's temp folder.
    const sandboxSockets = () => readdirSync(join(server!.runDir, 'tmp')).filter((name) => name.startsWith('srt-'));
    expect(sandboxSockets().length).toBeGreaterThan(0);
    await wb.step('reload the window: the server process ends with it, and the sandbox with its sockets', async () => {
      await wb.reload();
      await until('the server process is gone', () => processesTagged(tag).length === 0);
      await until('the sandbox sockets are gone', () => sandboxSockets().length === 0);
    });
    await wb.step('send again: remembered, so it starts without asking', async () => {
      panel = await wb.showPanel();
      await panel.locator('.message.assistant[data-state="ok"]').first().waitFor({ timeout: 30_000 });
      await send();
      // The thread's second answer, by its second top-level run.
      await panel.locator('.message.assistant[data-state="ok"]').nth(1).waitFor({ timeout: 60_000 });
      expect(await turn(1).locator(':scope > .tool-call[data-tool="mcp__fx__echo"]').getAttribute('data-state')).toBe('done');
      expect(await turn(1).locator(':scope > .tool-call[data-tool="mcp_server"]').count()).toBe(0);
    });
  });
});
