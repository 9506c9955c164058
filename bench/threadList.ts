import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JsonlThreadStore } from '../src/core/storage/threads/jsonlThreadStore';
import { threadSummaries } from '../src/host/panel/threadSummaries';
import { formatMs, summarize } from './stats';

const THREADS = 500;

// The panel's thread list with hundreds of conversations: titles, dates, statuses and turn counts
// come from the index alone, so listing reads one file however many threads there are. Timed in a
// fresh store (a window that just opened: it reads index.json) and in one that has it loaded.
export async function threadListBench(runs: number): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), 'subagents-bench-list-'));
  try {
    const writer = new JsonlThreadStore({ dir, indexDelayMs: 1 });
    for (let i = 0; i < THREADS; i++) {
      const id = `t_${String(i).padStart(20, '0')}`;
      await writer.open({ id, title: `conversation ${i}`, parentThreadId: null, agent: 'supervisor' });
      for (let turn = 0; turn < 2; turn++) {
        const runId = `r_${i}_${turn}`;
        const ts = Date.now();
        writer.append({
          v: 1,
          threadId: id,
          runId,
          ts,
          kind: 'run.started',
          parentRunId: null,
          agent: 'supervisor',
          agentPath: ['supervisor'],
          depth: 0,
          task: 'a task',
          model: 'm',
        });
        writer.append({ v: 1, threadId: id, runId, ts: ts + 1, kind: 'text.delta', text: 'an answer' });
        writer.append({
          v: 1,
          threadId: id,
          runId,
          ts: ts + 2,
          kind: 'run.finished',
          status: 'ok',
          output: 'an answer',
          usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
          durationMs: 2,
        });
      }
      await writer.close(id);
    }
    await writer.flush();
    writer.dispose();
    const cold: number[] = [];
    const warm: number[] = [];
    for (let r = 0; r < runs; r++) {
      const store = new JsonlThreadStore({ dir });
      let t = performance.now();
      const first = await threadSummaries(store, () => false);
      cold.push(performance.now() - t);
      t = performance.now();
      await threadSummaries(store, () => false);
      warm.push(performance.now() - t);
      store.dispose();
      if (first.length !== THREADS || first.some((s) => s.runCount !== 2 || s.status !== 'ok'))
        throw new Error('the thread list bench listed the wrong threads');
    }
    return [
      `Thread list: ${THREADS} conversations with their status and turn count, in a window that just opened ${formatMs(summarize(cold))}, again ${formatMs(summarize(warm))}`,
    ];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
