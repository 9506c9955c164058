import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LanguageModelV4, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { Engine } from '../src/core/engine/engine';
import { DEFAULT_SETTINGS, SUPERVISOR } from '../src/core/config/settings/engineSettings';
import type { ModelResolver } from '../src/core/models/modelResolver';
import { nodeWorkspace } from '../src/core/engine/nodeWorkspace';
import type { Profile } from '../src/core/config/profiles/profile';
import { MemoryThreadStore } from '../src/core/storage/threads/memoryThreadStore';
import { formatMs, summarize } from './stats';

// Stop on one child's node, while the child runs a command that ignores SIGTERM (so it takes the
// SIGKILL after the grace) and its two siblings keep working: the time from Engine.cancelRun to the
// child's run.finished, and to the moment its command's processes are gone. The goal is under 3 s;
// the grace alone is 1 s.

/** Processes whose command line holds `needle` (Linux /proc). */
function processesWith(needle: string): number {
  let n = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (stat.split(') ')[1]?.startsWith('Z')) continue;
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(needle)) n++;
    } catch {
      // Gone while we looked.
    }
  }
  return n;
}

/** A model whose calls answer from a list, one per call; each part list is streamed at once. */
function listModel(answers: (() => LanguageModelV4StreamPart[])[]): LanguageModelV4 {
  let call = 0;
  return {
    specificationVersion: 'v4',
    provider: 'bench',
    modelId: 'list',
    supportedUrls: {},
    doGenerate: () => Promise.reject(new Error('the bench only streams')),
    doStream: async () => {
      const parts = (answers[Math.min(call++, answers.length - 1)] ?? (() => []))();
      return { stream: new ReadableStream({ start: (c) => (parts.forEach((p) => c.enqueue(p)), c.close()) }) };
    },
  };
}

const finish = (reason: 'stop' | 'tool-calls'): LanguageModelV4StreamPart => ({
  type: 'finish',
  finishReason: { unified: reason, raw: reason },
  usage: {
    inputTokens: { total: 5, noCache: 5, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: 5, text: 5, reasoning: undefined },
  },
});
const text = (t: string): LanguageModelV4StreamPart[] => [
  { type: 'text-start', id: 't' },
  { type: 'text-delta', id: 't', delta: t },
  { type: 'text-end', id: 't' },
];
const call = (tool: string, input: unknown): LanguageModelV4StreamPart => ({
  type: 'tool-call',
  toolCallId: `c_${Math.random()}`,
  toolName: tool,
  input: JSON.stringify(input),
});

export async function cancelChildBench(runs: number): Promise<string[]> {
  return [await cancelChild(runs, 'off'), await cancelChild(runs, 'auto')];
}

async function cancelChild(runs: number, sandbox: 'off' | 'auto'): Promise<string> {
  const root = mkdtempSync(join(tmpdir(), 'subagents-bench-cancel-'));
  const marker = join(root, 'started');
  const profiles = new Map<string, Profile>(
    ['a', 'b', 'c'].map((n) => [n, { name: n, description: n, instructions: '', source: 'bench' }]),
  );
  const settings = { ...DEFAULT_SETTINGS, model: 'bench:mock', approval: 'trust' as const, 'sandbox.mode': sandbox };
  const resolver = (): ModelResolver => ({
    resolve: (_spec, caller) => {
      if (caller.agent === SUPERVISOR)
        return listModel([
          () => [call('delegate_task', { task: 'work', agents: ['a', 'b', 'c'] }), finish('tool-calls')],
          () => [...text('done'), finish('stop')],
        ]);
      if (caller.agent === 'b')
        return listModel([
          () => [
            ...text('b so far'),
            call('run_command', { command: `trap '' TERM; touch ${marker}; sleep 31.7; echo ${marker}` }),
            finish('tool-calls'),
          ],
          () => [...text('never'), finish('stop')],
        ]);
      return listModel([
        () => [...text('fine'), call('run_command', { command: 'sleep 2' }), finish('tool-calls')],
        () => [...text('fine'), finish('stop')],
      ]);
    },
  });
  const engine = new Engine({
    store: new MemoryThreadStore(),
    workspace: nodeWorkspace({ root }),
    profiles: () => ({ profiles, problems: [] }),
    settings: () => settings,
    createModelResolver: resolver,
  });
  const samples: number[] = [];
  const killed: number[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      rmSync(marker, { force: true });
      let bRun = '';
      let stoppedAt = 0;
      const ended = new Promise<number>((resolve) =>
        engine.onEvent((e) => {
          if (e.kind === 'run.started' && e.agent === 'b') bRun = e.runId;
          if (e.kind === 'run.finished' && e.runId === bRun && stoppedAt) resolve(performance.now() - stoppedAt);
        }),
      );
      const { threadId, done } = await engine.send({ prompt: 'go' });
      while (!existsSync(marker)) await new Promise((r) => setTimeout(r, 5));
      stoppedAt = performance.now();
      engine.cancelRun(bRun, threadId);
      samples.push(await ended);
      while (processesWith(marker) + processesWith('sleep\u000031.7') > 0) await new Promise((r) => setTimeout(r, 5));
      killed.push(performance.now() - stoppedAt);
      await done;
      await engine.whenQuiet(threadId);
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  return (
    `Stop one of three children while its command ignores SIGTERM (sandbox ${sandbox}), ${runs} runs: cancelRun to its run.finished ${formatMs(summarize(samples))}, ` +
    `to its command's processes gone ${formatMs(summarize(killed))} (goal: under 3 s; the SIGTERM grace is 1 s)`
  );
}
