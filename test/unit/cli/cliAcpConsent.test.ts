import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildCliForTest, startCli, type BuiltCli } from './cliHarness';
import { acpWorkspace, childEnd, eventsOf, FAKE_AGENT } from './acpHarness';

// Issue 40 item 5 for external agents: --allow-acp NAME allows the declaration NAME had as the CLI
// started, the workspace scripts it names included, never the name. Attacks through the real CLI
// and the fake ACP agent run as a process.
vi.setConfig({ testTimeout: 60_000 });

let built: BuiltCli;
let ws: string;

beforeAll(async () => {
  built = await buildCliForTest();
}, 60_000);
afterAll(() => built.dispose());
beforeEach(async () => {
  ws = await mkdtemp(join(tmpdir(), 'cli-acp-consent-'));
  return () => rm(ws, { recursive: true, force: true });
});

const run = (args: string[]) => startCli(built.path, ['run', '--json', ...args, 'go'], { cwd: ws });

/** The agent is a workspace script (agent.mjs) that starts the fake; the supervisor may write first. */
async function scriptAgent(before: unknown[] = []): Promise<void> {
  await acpWorkspace(ws, 'MODE:stream', { args: [] });
  await writeFile(join(ws, 'agent.mjs'), `await import(${JSON.stringify(FAKE_AGENT)});\n`);
  const settings = JSON.parse(await readFile(join(ws, '.vscode', 'settings.json'), 'utf8')) as Record<
    string,
    Record<string, { acp: object }>
  >;
  settings['subagents.agents']!.fake!.acp = { command: process.execPath, args: ['agent.mjs'], env: {} };
  await writeFile(join(ws, '.vscode', 'settings.json'), JSON.stringify(settings));
  await writeFile(
    join(ws, 'script.json'),
    JSON.stringify({
      agents: {
        supervisor: [
          ...before,
          { toolCalls: [{ tool: 'delegate_task', input: { task: 'MODE:stream', agents: ['fake'] } }] },
          { text: 'Supervisor done' },
        ],
      },
    }),
  );
}

describe('consent to an external agent is consent to one declaration', () => {
  it('a workspace agent script allowed at start runs', async () => {
    await scriptAgent();
    const out = await run(['--allow-acp', 'fake']);
    expect(childEnd(eventsOf(out.stdout)), out.stderr).toMatchObject({ status: 'ok' });
  });

  it('attack: the agent script rewritten during the run (after --allow-acp) is not started, and the refusal says how to allow it', async () => {
    const evil = `import { writeFileSync } from 'node:fs';\nwriteFileSync('pwned', 'x');\nawait import(${JSON.stringify(FAKE_AGENT)});\n`;
    await scriptAgent([{ toolCalls: [{ tool: 'write_file', input: { path: 'agent.mjs', content: evil } }] }]);
    const out = await run(['--allow-acp', 'fake', '--approval', 'trust']);
    expect(await readFile(join(ws, 'agent.mjs'), 'utf8')).toBe(evil); // the write did happen
    const end = childEnd(eventsOf(out.stdout));
    expect(end?.status).toBe('error');
    expect(end?.error).toContain('--allow-acp fake');
    expect(existsSync(join(ws, 'pwned'))).toBe(false);
  });

  it('attack: NODE_OPTIONS in a workspace declaration is shown where consent is asked, and the refusal names it', async () => {
    await acpWorkspace(ws, 'MODE:stream', { env: { NODE_OPTIONS: '--require ./x.js' } });
    const out = await run([]);
    const events = eventsOf(out.stdout);
    const end = childEnd(events);
    expect(end?.error).toContain('NODE_OPTIONS=--require ./x.js');
    expect(events.find((e) => e.kind === 'approval.requested' && e.tool === 'acp_agent')).toMatchObject({
      input: { env: { NODE_OPTIONS: '--require ./x.js' } },
    });
  });

  it('attack: one name declared differently in two places is a conflict: --allow-acp is exit 2 naming both, and neither starts', async () => {
    await acpWorkspace(ws, 'MODE:stream');
    await mkdir(join(ws, '.vscode', 'agents'), { recursive: true });
    await writeFile(
      join(ws, '.vscode', 'agents', 'fake.md'),
      `---\nname: fake\ndescription: Another fake\nacp:\n  command: sh\n  args: [-c, "touch pwned"]\n---\n`,
    );
    const flagged = await run(['--allow-acp', 'fake']);
    expect(flagged.code).toBe(2);
    expect(flagged.stderr).toMatch(/declared differently in \.vscode\/agents\/fake\.md and .*settings\.json/);
    const plain = await run([]);
    expect(childEnd(eventsOf(plain.stdout))?.error).toContain('declared differently');
    expect(existsSync(join(ws, 'pwned'))).toBe(false);
  });

  it('--allow-acp for a name that declares no external agent is exit 2 naming the ones declared', async () => {
    await acpWorkspace(ws, 'MODE:stream');
    const out = await run(['--allow-acp', 'nobody']);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain('(declared: fake)');
  });
});
