import { mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { nodeWorkspace } from '../../../../../src/core/engine/nodeWorkspace';
import { MemoryThreadStore } from '../../../../../src/core/storage/threads/memoryThreadStore';
import type { RunEvent, RunEventOf } from '../../../../../src/shared/events';
import { agent, makeEngine } from '../../engineHarness';
import { programmedModel } from '../../programmedModel';
import { FAKE_AGENT } from '../../../cli/acpHarness';

// Issue 44, item 1: one agent process per child thread, kept for its `continue`, its session loaded
// (session/load) when the process has gone and the agent offers it, else a new session told the
// thread's earlier turns; none outlives the engine. The fake ACP agent runs as a real process and
// logs each session request ("<pid> new|load|prompt <sessionId>").
vi.setConfig({ testTimeout: 60_000 });

let root: string;
let log: string;
beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'acp-sessions-')));
  log = join(root, 'requests.log');
  return () => rm(root, { recursive: true, force: true });
});

/** An engine whose supervisor delegates `first` to the fake, then (`continued`) continues that child's thread with it. */
function engineFor(
  store: MemoryThreadStore,
  tasks: { first?: string; continued?: string },
  env: Record<string, string> = {},
  childThread: { id?: string } = {},
) {
  const h = makeEngine(
    { agents: {} },
    {
      store,
      workspace: nodeWorkspace({ root }),
      agents: {
        fake: agent('A fake external agent', {
          acp: { command: process.execPath, args: [FAKE_AGENT], env: { FAKE_ACP_LOG: log, ...env } },
        }),
      },
      model: (c) =>
        c.agent === 'supervisor'
          ? programmedModel(({ call, lastToolOutput }) => {
              const steps = [
                ...(tasks.first ? [{ task: tasks.first }] : []),
                ...(tasks.continued ? [{ task: tasks.continued, continueThreadId: true }] : []),
              ];
              const out = lastToolOutput() as { threadId: string }[] | undefined;
              if (out?.[0]) childThread.id = out[0].threadId;
              const step = steps[call];
              if (!step) return { text: 'done' };
              const input = {
                task: step.task,
                agents: ['fake'],
                ...(step.continueThreadId ? { continueThreadId: childThread.id } : {}),
              };
              // Ids of their own: a later engine's call must not read as a replay of an earlier one.
              return { toolCalls: [{ tool: 'delegate_task', input, id: `${step.continueThreadId ? 'continue' : 'first'}_${call}` }] };
            })
          : undefined,
    },
  );
  // Declared by the user: it starts without a consent question.
  h.profiles.get('fake')!.source = 'user settings';
  return h;
}

async function request(h: ReturnType<typeof engineFor>, threadId?: string): Promise<string> {
  const sent = await h.engine.send({ prompt: 'go', ...(threadId ? { threadId } : {}) });
  await sent.done;
  await h.engine.whenQuiet(sent.threadId);
  return sent.threadId;
}

const childEnds = (events: readonly RunEvent[]) => {
  const children = new Set(events.flatMap((e) => (e.kind === 'run.started' && e.agent === 'fake' ? [e.runId] : [])));
  return events.filter((e): e is RunEventOf<'run.finished'> => e.kind === 'run.finished' && children.has(e.runId));
};
const whoami = (output: string | undefined) => {
  const m = /pid=(\d+) session=(\S+)/.exec(output ?? '');
  return m ? { pid: Number(m[1]), session: m[2]! } : undefined;
};
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const requests = async () => (await readFile(log, 'utf8')).trim().split('\n');

describe('the process of an ACP child thread (issue 44)', () => {
  it('a continue of the child thread is sent to the same process and session; the process ends with the engine', async () => {
    const h = engineFor(new MemoryThreadStore(), { first: 'MODE:whoami', continued: 'MODE:whoami again' });
    await request(h);
    const [first, second] = childEnds(h.events);
    expect(first, JSON.stringify(h.events.filter((e) => e.kind === 'run.finished'))).toMatchObject({ status: 'ok' });
    expect(second).toMatchObject({ status: 'ok' });
    expect(second!.threadId).toBe(first!.threadId);
    const a = whoami(first!.output)!;
    const b = whoami(second!.output)!;
    expect(b).toEqual(a);
    expect(h.events.filter((e) => e.kind === 'acp.session').map((e) => (e as RunEventOf<'acp.session'>).via)).toEqual(['new', 'kept']);
    expect((await requests()).filter((l) => / (new|load) /.test(l))).toEqual([`${a.pid} new ${a.session}`]);

    // Kept for the thread's next continue while the engine lives; gone, with its process group, when it closes.
    expect(alive(a.pid)).toBe(true);
    await h.engine.closeExternalAgents();
    expect(alive(a.pid)).toBe(false);
  });

  it('when the process has gone and the agent offers loadSession, a new process loads the stored session (session/load)', async () => {
    const store = new MemoryThreadStore();
    const thread: { id?: string } = {};
    const before = engineFor(store, { first: 'MODE:whoami' }, { FAKE_ACP_LOAD: '1' }, thread);
    const top = await request(before);
    const earlier = whoami(childEnds(before.events)[0]?.output)!;
    expect(before.events.find((e) => e.kind === 'acp.session')).toMatchObject({
      sessionId: earlier.session,
      via: 'new',
      loadSession: true,
    });
    // The window closes (or the CLI exits): the process goes.
    await before.engine.closeExternalAgents();
    expect(alive(earlier.pid)).toBe(false);

    // A later engine on the same threads (the next window, `subagents run --thread`) continues the child thread.
    const after = engineFor(store, { continued: 'MODE:whoami' }, { FAKE_ACP_LOAD: '1' }, thread);
    await request(after, top);
    const end = childEnds(after.events)[0];
    expect(end, JSON.stringify(end)).toMatchObject({ status: 'ok', threadId: thread.id });
    const now = whoami(end!.output)!;
    expect(now.pid).not.toBe(earlier.pid);
    expect(now.session).toBe(earlier.session);
    expect(await requests()).toContain(`${now.pid} load ${earlier.session}`);
    expect(after.events.find((e) => e.kind === 'acp.session')).toMatchObject({ sessionId: earlier.session, via: 'loaded' });
    // What the load replayed is the earlier run's, not shown again on this run's node.
    const text = after.events.flatMap((e) => (e.kind === 'text.delta' && e.runId === end!.runId ? [e.text] : [])).join('');
    expect(text).not.toContain('replayed');
    expect(after.events.some((e) => e.kind === 'warning' && e.runId === end!.runId)).toBe(false);
    await after.engine.closeExternalAgents();
    expect(alive(now.pid)).toBe(false);
  });

  it('without loadSession, a new session is told the earlier task and result, and the node says so', async () => {
    const store = new MemoryThreadStore();
    const thread: { id?: string } = {};
    const before = engineFor(store, { first: 'MODE:whoami' }, {}, thread);
    const top = await request(before);
    const earlier = whoami(childEnds(before.events)[0]?.output)!;
    await before.engine.closeExternalAgents();

    const after = engineFor(store, { continued: 'MODE:echo what did you say?' }, {}, thread);
    await request(after, top);
    const end = childEnds(after.events)[0]!;
    expect(end.status).toBe('ok');
    expect(end.output).toContain('[Earlier in this conversation');
    expect(end.output).toContain('MODE:whoami');
    expect(end.output).toContain(`pid=${earlier.pid} session=${earlier.session}`);
    expect(end.output).toContain('MODE:echo what did you say?');
    expect(after.events.find((e) => e.kind === 'acp.session')).toMatchObject({ via: 'new', loadSession: false });
    const warning = after.events.find((e) => e.kind === 'warning' && e.runId === end.runId);
    expect(warning).toMatchObject({ message: expect.stringContaining('fake-acp does not offer session/load') });
    expect((await requests()).filter((l) => / load /.test(l))).toEqual([]);
    await after.engine.closeExternalAgents();
  });

  it('a stopped child thread keeps no process: the next continue starts a new one', async () => {
    const h = engineFor(new MemoryThreadStore(), { first: 'MODE:crash', continued: 'MODE:whoami' });
    await request(h);
    const [crashed, next] = childEnds(h.events);
    expect(crashed).toMatchObject({ status: 'error' });
    expect(next, JSON.stringify(next)).toMatchObject({ status: 'ok' });
    const pids = new Set((await requests()).filter((l) => / new /.test(l)).map((l) => l.split(' ')[0]));
    expect(pids.size).toBe(2);
    await h.engine.closeExternalAgents();
    expect(alive(whoami(next!.output)!.pid)).toBe(false);
  });
});
