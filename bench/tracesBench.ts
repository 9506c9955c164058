import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Engine } from '../src/core/engine/engine';
import { MemoryThreadStore } from '../src/core/storage/threads/memoryThreadStore';
import { engineScenario } from './engineScenario';
import { roundOrder, time } from './measure';
import { formatMs, roundRatio, summarize, table } from './stats';

// `npm run bench -- --traces`: what traces cost a request (issue 43 item 6). The delegation
// scenario through the engine (3 children, L = 0, the worst case for a relative cost), without
// traces, with traces to a local collector (a node:http server that takes every POST), and with
// content recorded too. The columns run alternately; the collector runs in this process, so its
// parsing of nothing (it reads and drops the bodies) is in the figures too.

export async function tracesBench(runs: number, warmup = 5): Promise<string[]> {
  let posts = 0;
  let bytes = 0;
  const collector = createServer((req, res) => {
    req.on('data', (chunk: Buffer) => (bytes += chunk.length));
    req.on('end', () => {
      posts++;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
  const engines: Engine[] = [];
  try {
    const columns = [
      engineScenario(3, 0, new MemoryThreadStore({ keepEvents: false })),
      engineScenario(3, 0, new MemoryThreadStore({ keepEvents: false }), undefined, { 'telemetry.otlpEndpoint': url }, engines),
      engineScenario(
        3,
        0,
        new MemoryThreadStore({ keepEvents: false }),
        undefined,
        { 'telemetry.otlpEndpoint': url, 'telemetry.recordContent': true },
        engines,
      ),
    ];
    for (let i = 0; i < warmup; i++) for (const run of columns) await run();
    const samples: number[][] = columns.map(() => []);
    for (let i = 0; i < runs; i++) for (const c of roundOrder(columns.length)) samples[c]!.push(await time(columns[c]!));
    await Promise.all(engines.map((e) => e.closeTraces()));
    const [off, on, content] = samples as [number[], number[], number[]];
    const rows = [
      ['3 children, L = 0 ms', 'no traces', 'traces', 'traces/none', 'per round', 'traces + content', '+content/none', 'per round'],
      [
        'engine, memory store',
        formatMs(summarize(off)),
        formatMs(summarize(on)),
        `${(summarize(on).median / summarize(off).median).toFixed(2)} x`,
        roundRatio(on, off),
        formatMs(summarize(content)),
        `${(summarize(content).median / summarize(off).median).toFixed(2)} x`,
        roundRatio(content, off),
      ],
    ];
    return [
      `Traces bench: ${runs} runs after ${warmup} warm-up runs, medians (min–max); node ${process.version}`,
      table(rows),
      `The collector took ${posts} POSTs, ${(bytes / 1024).toFixed(0)} KB in all (batches of the BatchSpanProcessor, sent every 5 s and at the end).`,
    ];
  } finally {
    await new Promise<void>((resolve) => collector.close(() => resolve()));
  }
}
