import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LanguageModelV4, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { heldModel } from '../src/core/run/agent/workSlot';
import { idleTimeoutModel } from '../src/core/run/liveness/idleTimeoutModel';
import { StallWatch } from '../src/core/run/liveness/stallWatch';
import { withResilience } from '../src/core/models/resilientModel';
import { systemClock, systemSchedule } from '../src/core/ports';
import { JsonlThreadStore } from '../src/core/storage/threads/jsonlThreadStore';
import { engineScenario } from './engineScenario';
import { MemoryThreadStore } from '../src/core/storage/threads/memoryThreadStore';
import { isPlainTextDelta } from '../src/core/storage/threads/threadFile';
import { readIndex, writeIndex } from '../src/core/storage/threads/threadIndex';
import type { ThreadStore } from '../src/core/storage/threads/threadStore';
import { runEventSchema, type UnsequencedRunEvent } from '../src/shared/events';
import { childModel } from './mockModels';
import { summarize, type Summary } from './stats';

// `npm run bench -- --profile` (with bench/cpuProfile.ts): what each suspect on the engine's hot
// path costs on its own, measured in isolation, alternately with its baseline: the store's write
// per event and per thread, the resilience wrapper's extra stream layer (and a run's whole stack of
// wrappers, which shares one), zod per event.

const us = (s: Summary, digits = 2): string => `${s.median.toFixed(digits)} µs (${s.min.toFixed(digits)}–${s.max.toFixed(digits)})`;
const ms = (s: Summary): string => `${s.median.toFixed(2)} ms (${s.min.toFixed(2)}–${s.max.toFixed(2)})`;
const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

const delta = (threadId: string, i: number): UnsequencedRunEvent => ({
  v: 1,
  threadId,
  runId: 'r1',
  ts: Date.now(),
  kind: 'text.delta',
  text: `word${i} `,
});

/** µs of the synchronous append per text.delta: 50 appends (one child's stream), then the event loop turns, as in a run. */
async function appendCost(store: ThreadStore, rounds: number): Promise<Summary> {
  await store.open({ id: 't-append', title: 'bench', parentThreadId: null, agent: 'supervisor' });
  const samples: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const t0 = performance.now();
    for (let i = 0; i < 50; i++) store.append(delta('t-append', i));
    samples.push(((performance.now() - t0) * 1000) / 50);
    await tick();
  }
  await store.close('t-append');
  return summarize(samples);
}

/** ms of one child thread's life in the store: its open (on the delegation's critical path), 52 appends, its close. */
async function threadCost(store: ThreadStore, id: string): Promise<{ open: number; close: number }> {
  const t0 = performance.now();
  // As a delegation opens its child's thread: a new id (its file made, its lease taken, both synchronously).
  await store.open({ id, title: 'child', parentThreadId: null, agent: 'agent-1' }, { newId: true });
  const t1 = performance.now();
  for (let i = 0; i < 52; i++) store.append(delta(id, i));
  await store.close(id);
  return { open: t1 - t0, close: performance.now() - t1 };
}

/** µs to read one child's whole stream (54 parts) from doStream. */
async function readStream(model: LanguageModelV4): Promise<number> {
  const t0 = performance.now();
  const { stream } = await model.doStream({ prompt: [] });
  const reader = stream.getReader();
  let parts = 0;
  for (let next = await reader.read(); !next.done; next = await reader.read())
    parts += (next.value as LanguageModelV4StreamPart).type ? 1 : 0;
  if (parts !== 54) throw new Error(`the mock stream had ${parts} parts, not 54`);
  return (performance.now() - t0) * 1000;
}

/**
 * ms of one index write (what flush does after a run made a thread; Engine.whenQuiet leaves it to the coalesced write) in a
 * store that already holds `threads` threads, and of the index read inside it, of which zod's check.
 */
async function indexCost(dir: string, threads: number): Promise<{ write: Summary; read: Summary; zod: Summary }> {
  mkdirSync(dir, { recursive: true });
  const metas = Array.from({ length: threads }, (_, i) => ({
    id: `old-${i}`,
    title: `thread ${i}`,
    parentThreadId: null,
    agent: 'supervisor',
    createdAt: i,
    updatedAt: i,
    runCount: 1,
    status: 'ok' as const,
  }));
  for (const m of metas) writeFileSync(join(dir, `${m.id}.jsonl`), '');
  await writeIndex(dir, metas);
  const store = new JsonlThreadStore({ dir });
  const write: number[] = [];
  const read: number[] = [];
  const zod: number[] = [];
  for (let r = 0; r < 10; r++) {
    const id = `new-${r}`;
    await store.open({ id, title: 'child', parentThreadId: null, agent: 'agent-1' });
    await store.close(id);
    const t0 = performance.now();
    await store.flush();
    write.push(performance.now() - t0);
    const t1 = performance.now();
    await readIndex(dir);
    read.push(performance.now() - t1);
    // The same read without the schema check: the difference is zod's.
    const t2 = performance.now();
    JSON.parse(await readFile(join(dir, 'index.json'), 'utf8'));
    zod.push(Math.max(0, read.at(-1)! - (performance.now() - t2)));
  }
  store.dispose();
  return { write: summarize(write), read: summarize(read), zod: summarize(zod) };
}

/** µs per call of `fn`, over `calls` calls, `rounds` times. */
function perCall(fn: () => unknown, calls: number, rounds: number): Summary {
  const samples: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const t0 = performance.now();
    for (let i = 0; i < calls; i++) fn();
    samples.push(((performance.now() - t0) * 1000) / calls);
  }
  return summarize(samples);
}

export async function hotPathBench(): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'subagents-bench-hot-'));
  try {
    const lines = ['Hot path, each piece alone (medians, min–max):'];
    const memoryAppend = await appendCost(new MemoryThreadStore(), 400);
    const jsonlAppend = await appendCost(new JsonlThreadStore({ dir: join(dir, 'append') }), 400);
    lines.push(
      `  store.append per text.delta (stamp, and for JSONL stringify and queue; the batch is written on the loop's next turn or a flush): memory ${us(memoryAppend)}, JSONL ${us(jsonlAppend)}`,
    );

    const memory = new MemoryThreadStore({ keepEvents: false });
    const jsonl = new JsonlThreadStore({ dir: join(dir, 'threads') });
    const costs = {
      memoryOpen: [] as number[],
      memoryClose: [] as number[],
      jsonlOpen: [] as number[],
      jsonlClose: [] as number[],
      flush: [] as number[],
    };
    for (let t = 0; t < 60; t++) {
      const m = await threadCost(memory, `m${t}`);
      const j = await threadCost(jsonl, `j${t}`);
      costs.memoryOpen.push(m.open);
      costs.memoryClose.push(m.close);
      costs.jsonlOpen.push(j.open);
      costs.jsonlClose.push(j.close);
      // The index written with the new threads: what flush adds (whenQuiet leaves it to the coalesced write).
      const f0 = performance.now();
      await jsonl.flush();
      costs.flush.push(performance.now() - f0);
    }
    lines.push(
      `  one child thread in the store: open (a new id: its file made and its lease taken, synchronous calls) memory ${ms(summarize(costs.memoryOpen))}, JSONL ${ms(summarize(costs.jsonlOpen))}; ` +
        `52 appends and close (one batch write, the file closed, the lease given back) memory ${ms(summarize(costs.memoryClose))}, JSONL ${ms(summarize(costs.jsonlClose))}; ` +
        `then flush (the index, which whenQuiet no longer waits for) JSONL ${ms(summarize(costs.flush))}`,
    );

    // The run's tail: from the answer to whenQuiet, the store's last writes and lease release.
    const tails = { memory: [] as number[], jsonl: [] as number[] };
    const memoryRun = engineScenario(3, 0, new MemoryThreadStore({ keepEvents: false }), tails.memory);
    const jsonlRun = engineScenario(3, 0, new JsonlThreadStore({ dir: join(dir, 'tail') }), tails.jsonl);
    for (let i = 0; i < 45; i++) {
      await memoryRun();
      await jsonlRun();
    }
    lines.push(
      `  a run's tail (3 children, L = 0: from the answer to whenQuiet, 40 runs after 5): memory ${ms(summarize(tails.memory.slice(5)))}, JSONL ${ms(summarize(tails.jsonl.slice(5)))}`,
    );

    const bare = childModel(0);
    const wrapped = withResilience(childModel(0), { spec: 'bench:mock' });
    // A child's model as runModel and runAgent stack it: the idle watch (which taps its stream), a work slot, the retries.
    const watch = new StallWatch(60_000, systemClock, systemSchedule, () => {});
    const idle = idleTimeoutModel(childModel(0), {
      idleTimeoutMs: 60_000,
      clock: systemClock,
      schedule: systemSchedule,
      watch,
      onRetry: () => {},
    });
    const stacked = withResilience(heldModel(idle, { hold: async () => () => {} }), { spec: 'bench:mock' });
    const bareUs: number[] = [];
    const wrappedUs: number[] = [];
    const stackedUs: number[] = [];
    for (let i = 0; i < 300; i++) {
      bareUs.push(await readStream(bare));
      wrappedUs.push(await readStream(wrapped));
      stackedUs.push(await readStream(stacked));
    }
    watch.stop();
    const b = summarize(bareUs);
    const w = summarize(wrappedUs);
    const st = summarize(stackedUs);
    const extra = (x: Summary) => `${(x.median - b.median).toFixed(1)} µs a stream, ${((x.median - b.median) / 54).toFixed(2)} µs a part`;
    lines.push(
      `  one child's stream (54 parts) read from doStream: bare ${us(b, 1)}; through withResilience alone (its own layer) ${us(w, 1)}: ${extra(w)}; through a run's whole stack (retries, work slot, idle watch: one layer, the idle watch's, tapped by the others) ${us(st, 1)}: ${extra(st)}`,
    );

    for (const n of [10, 100, 1000]) {
      const c = await indexCost(join(dir, `index-${n}`), n);
      lines.push(
        `  index write after a run made a thread, in a store of ${n} threads (lock, read and check, list the folder, write, rename): ${ms(c.write)}; its read alone ${ms(c.read)}, of which zod's check ${ms(c.zod)}`,
      );
    }

    const event = { ...delta('t1', 1), seq: 7 };
    const zod = perCall(() => runEventSchema.safeParse(event), 20_000, 15);
    const byHand = perCall(() => isPlainTextDelta(event), 20_000, 15);
    const stringify = perCall(() => JSON.stringify(event), 20_000, 15);
    lines.push(
      `  per text.delta: runEventSchema.safeParse ${us(zod)}, the hand check the store's loader uses instead ${us(byHand, 3)}, JSON.stringify ${us(stringify)} (zod's share of whole runs: the profile below)`,
    );
    return lines;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
