import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JsonlThreadStore } from '../src/core/storage/threads/jsonlThreadStore';
import { EventBatcher } from '../src/host/panel/eventBatcher';
import type { RunEvent } from '../src/shared/events';
import { EMPTY_TREE, foldRunEvents } from '../src/shared/runTree';
import { formatMs, summarize } from './stats';

// The event and store budgets (docs/performance.md): 100k text deltas through store -> webview batcher
// (events/s, and webview messages per second of the run), and loading + folding that thread back.

const EVENTS = 100_000;

export async function eventsAndStoreBench(runs: number): Promise<string[]> {
  const rates: number[] = [];
  const appendMs: number[] = [];
  const loadMs: number[] = [];
  let minGapMs = Infinity;
  for (let r = 0; r < runs; r++) {
    const dir = mkdtempSync(join(tmpdir(), 'subagents-bench-events-'));
    try {
      const store = new JsonlThreadStore({ dir });
      await store.open({ id: 't1', title: 'bench', parentThreadId: null, agent: 'supervisor' });
      // The shortest gap between two webview messages bounds their rate: 1000 / gap per second.
      let lastMessage = 0;
      const batcher = new EventBatcher({
        flush: () => {
          const now = performance.now();
          if (lastMessage) minGapMs = Math.min(minGapMs, now - lastMessage);
          lastMessage = now;
        },
      });
      const started = performance.now();
      const first = store.append({
        v: 1,
        threadId: 't1',
        runId: 'r1',
        ts: Date.now(),
        kind: 'run.started',
        parentRunId: null,
        agent: 'supervisor',
        agentPath: ['supervisor'],
        depth: 0,
        task: 'bench',
        model: 'm',
      });
      batcher.push(first);
      for (let i = 0; i < EVENTS; i++) {
        // What the engine does per delta: stamp and queue it in the store, hand it to the panel's batcher.
        batcher.push(store.append({ v: 1, threadId: 't1', runId: 'r1', ts: Date.now(), kind: 'text.delta', text: 'token ' }));
        // Deltas arrive from a stream, between which timers and I/O run: let them.
        if (i % 500 === 499) await new Promise((resolve) => setImmediate(resolve));
      }
      const pushed = performance.now();
      rates.push(EVENTS / ((pushed - started) / 1000));
      await store.flush();
      appendMs.push(performance.now() - started);
      batcher.dispose();
      // Its file and its lease given back, as a window's shutdown does (not left to the garbage collector).
      await store.closeAll();
      store.dispose();

      const reader = new JsonlThreadStore({ dir });
      const t0 = performance.now();
      const loaded = await reader.get('t1');
      const tree = foldRunEvents(EMPTY_TREE, loaded!.events as RunEvent[]);
      loadMs.push(performance.now() - t0);
      if (tree.runs['r1']!.text.length !== EVENTS * 6) throw new Error('the folded text is wrong');
      reader.dispose();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const rate = summarize(rates);
  return [
    `Events: ${EVENTS / 1000}k text deltas through store.append -> webview batcher: median ${Math.round(rate.median / 1000)}k events/s (${Math.round(rate.min / 1000)}k–${Math.round(rate.max / 1000)}k; budget over 200k/s); shortest gap between webview messages ${minGapMs.toFixed(1)} ms, so at most ${(1000 / minGapMs).toFixed(1)} per second (budget 60)`,
    `Store: append ${EVENTS / 1000}k events and flush to disk ${formatMs(summarize(appendMs))} (budget under 1 s); load and fold them ${formatMs(summarize(loadMs))} (budget under 300 ms)`,
  ];
}
