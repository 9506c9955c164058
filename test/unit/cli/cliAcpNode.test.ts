import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildCliForTest, startCli, type BuiltCli } from './cliHarness';
import { acpWorkspace, childEnd, eventsOf } from './acpHarness';
import { EMPTY_TREE, foldRunEvents } from '../../../src/shared/runTree';
import { toolDetail } from '../../../src/shared/toolDetail';

// Issue 44 item 2: what an external agent thinks, the diffs of its edits and its tokens against the
// run's budget, through the real CLI and the fake ACP agent run as a process.
vi.setConfig({ testTimeout: 60_000 });

let built: BuiltCli;
let ws: string;

beforeAll(async () => {
  built = await buildCliForTest();
}, 60_000);
afterAll(() => built.dispose());
beforeEach(async () => {
  ws = await mkdtemp(join(tmpdir(), 'cli-acp-node-'));
  return () => rm(ws, { recursive: true, force: true });
});

const run = (args: string[]) => startCli(built.path, ['run', '--json', ...args, 'go'], { cwd: ws });

describe('an ACP child on its node (issue 44 item 2)', () => {
  it("agent_thought_chunk is the child's reasoning (one block, never its result); a tool_call's diff is shown as a diff", async () => {
    await acpWorkspace(ws, 'MODE:diff');
    const out = await run(['--allow-acp', 'fake']);
    const events = eventsOf(out.stdout);
    const end = childEnd(events);
    expect(end).toMatchObject({ status: 'ok', output: 'edited' });
    const child = events.filter((e) => e.runId === end?.runId);
    expect(child.filter((e) => e.kind === 'run.reasoning')).toEqual([expect.objectContaining({ text: 'I should fix the greeting.' })]);
    const node = foldRunEvents(EMPTY_TREE, events).runs[end!.runId]!;
    expect(node.reasoning).toBe('I should fix the greeting.');
    expect(node.text).not.toContain('greeting');
    const edit = node.toolCalls.find((c) => c.tool === 'acp:edit')!;
    const diff = toolDetail(edit).output.find((b) => b.kind === 'diff');
    expect(diff).toMatchObject({ path: join(ws, 'hello.txt'), diff: { added: 1, removed: 1 } });
    expect(toolDetail(edit).input.map((f) => f.name)).not.toContain('content');
  });

  it("usage_update is charged to the run's budget: over its maxTokens the agent is ended, status budget, its process gone", async () => {
    await acpWorkspace(ws, 'MODE:budget', { maxTokens: 1000 });
    let pid = 0;
    const out = await startCli(built.path, ['run', '--json', '--allow-acp', 'fake', 'go'], {
      cwd: ws,
      onStdout: (text) => {
        const found = /pid=(\d+)/.exec(text);
        if (found && !pid) pid = Number(found[1]);
      },
    });
    const end = childEnd(eventsOf(out.stdout));
    expect(end?.status, JSON.stringify(end)).toBe('budget');
    expect(end?.error).toMatch(/^Stopped at its token budget: 5,000 of 1,000 tokens used/);
    expect(out.code, out.stderr).toBe(0);
    expect(pid).toBeGreaterThan(0);
    expect(() => process.kill(pid, 0)).toThrow();
  });
});
