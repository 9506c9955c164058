import type { RunConfig, RunEvent, RunEventOf, RunStatus, Usage } from '../../src/shared/events';
import type { HostToWebview, PanelConfig, QueuedPromptView, ThreadSummary } from '../../src/shared/protocol';

/**
 * Host messages and RunEvents for the panel, written as a host would send them. Pure (no browser,
 * no bundler): the webview tests and the render bench (bench/webviewRender.ts) share it.
 */

export const TRUSTED_CONFIG: PanelConfig = {
  model: 'scripted:test.json',
  agents: [
    { name: 'researcher', description: 'Finds things out.' },
    { name: 'reviewer', description: 'Checks the work.' },
  ],
  problems: [],
  trusted: true,
};

export function stateMessage(
  threadId: string | null,
  events: RunEvent[],
  extra: { threads?: ThreadSummary[]; config?: PanelConfig; busy?: boolean; queued?: QueuedPromptView[] } = {},
): HostToWebview {
  return {
    type: 'state',
    threadId,
    events,
    threads: extra.threads ?? [],
    config: extra.config ?? TRUSTED_CONFIG,
    busy: extra.busy ?? false,
    queued: extra.queued ?? [],
  };
}

/** Writes the RunEvents of one thread with increasing seq, remembering each run's place in the tree. */
export class ThreadScript {
  private seq = 0;
  private ts = Date.now() - 60_000;
  private readonly runs = new Map<string, { agentPath: string[]; depth: number }>();

  constructor(readonly threadId = 'thread-1') {}

  private base(runId: string) {
    this.ts += 10;
    return { v: 1 as const, threadId: this.threadId, runId, seq: this.seq++, ts: this.ts };
  }

  /** The user reverted the run's changes: these files are as before it. */
  reverted(runId: string, files: string[]): RunEvent {
    return { ...this.base(runId), kind: 'run.reverted', files };
  }

  /** `call`: the parent's tool call that started it (delegate_task). */
  started(runId: string, o: { parent?: string; agent?: string; task?: string; call?: string } = {}): RunEvent {
    const parent = o.parent ? this.runs.get(o.parent) : undefined;
    const agent = o.agent ?? (parent ? 'researcher' : 'supervisor');
    const place = { agentPath: [...(parent?.agentPath ?? []), agent], depth: parent ? parent.depth + 1 : 0 };
    this.runs.set(runId, place);
    return {
      ...this.base(runId),
      kind: 'run.started',
      parentRunId: o.parent ?? null,
      ...(o.call ? { parentToolCallId: o.call } : {}),
      agent,
      ...place,
      task: o.task ?? `task of ${runId}`,
      model: 'scripted:test',
    };
  }

  delta(runId: string, text: string): RunEvent {
    return { ...this.base(runId), kind: 'text.delta', text };
  }

  toolStarted(runId: string, toolCallId: string, tool: string, input: unknown): RunEvent {
    return { ...this.base(runId), kind: 'tool.started', toolCallId, tool, input };
  }

  toolFinished(runId: string, toolCallId: string, tool: string, output: unknown, isError = false): RunEvent {
    return { ...this.base(runId), kind: 'tool.finished', toolCallId, tool, output, isError };
  }

  approvalRequested(runId: string, approvalId: string, toolCallId: string, tool: string, input: unknown, reason?: string): RunEvent {
    return { ...this.base(runId), kind: 'approval.requested', approvalId, toolCallId, tool, input, ...(reason ? { reason } : {}) };
  }

  approvalResolved(runId: string, approvalId: string, toolCallId: string, tool: string, decision: 'approved' | 'denied'): RunEvent {
    return { ...this.base(runId), kind: 'approval.resolved', approvalId, toolCallId, tool, input: {}, decision };
  }

  config(runId: string, config: RunConfig): RunEvent {
    return { ...this.base(runId), kind: 'run.config', ...config };
  }

  usage(runId: string, usage: Usage): RunEvent {
    return { ...this.base(runId), kind: 'run.usage', usage };
  }

  message(runId: string, from: 'user' | 'parent', text: string): RunEvent {
    return { ...this.base(runId), kind: 'run.message', from, text };
  }

  warning(runId: string, message: string, code?: 'budget' | 'stall'): RunEvent {
    return { ...this.base(runId), kind: 'warning', message, ...(code ? { code } : {}) };
  }

  /** A file the run changed; hashes are made up from the names given (null: created or deleted). */
  fileChanged(
    runId: string,
    path: string,
    o: { before?: string | null; after?: string | null; added?: number; removed?: number; call?: string; overlap?: boolean } = {},
  ): RunEvent {
    const hash = (name: string | null | undefined) =>
      name === null
        ? null
        : (name ?? path)
            .padEnd(64, '0')
            .replace(/[^0-9a-f]/g, 'a')
            .slice(0, 64);
    return {
      ...this.base(runId),
      kind: 'file.changed',
      path,
      beforeHash: hash(o.before === undefined ? `${path}-before` : o.before),
      afterHash: hash(o.after === undefined ? `${path}-after` : o.after),
      added: o.added ?? 1,
      removed: o.removed ?? 0,
      toolCallId: o.call ?? 'call',
      attribution: o.overlap ? 'overlap' : 'exact',
    };
  }

  hookRan(
    runId: string,
    o: {
      event: string;
      command: string;
      exitCode: number | null;
      decision: RunEventOf<'hook.ran'>['decision'];
      note?: string;
      call?: string;
    },
  ): RunEvent {
    const { event, command, exitCode, decision, note, call } = o;
    return {
      ...this.base(runId),
      kind: 'hook.ran',
      event,
      command,
      source: '.claude/settings.json',
      exitCode,
      durationMs: 12,
      decision,
      ...(note ? { note } : {}),
      ...(call ? { toolCallId: call } : {}),
    };
  }

  finished(runId: string, status: RunStatus = 'ok', output = '', error?: string): RunEvent {
    return {
      ...this.base(runId),
      kind: 'run.finished',
      status,
      output,
      ...(error ? { error } : {}),
      usage: { inputTokens: 100, outputTokens: 20, totalTokens: 120 },
      durationMs: 1500,
    };
  }
}

/**
 * A finished tree of `runs` runs (a root, 30 children, the rest grandchildren spread over them),
 * each with `toolsPerRun` tool calls (a started and a finished event each) and a short markdown
 * output. The defaults are the budget's tree: 1,000 runs and 10,000 tool events.
 */
export function bigTree(script: ThreadScript, runs = 1000, toolsPerRun = 5): RunEvent[] {
  const events: RunEvent[] = [script.started('r0', { task: 'Audit the whole repository' })];
  const ids = ['r0'];
  for (let i = 1; i < runs; i++) {
    const parent = i <= 30 ? 'r0' : `r${((i - 31) % 30) + 1}`;
    events.push(script.started(`r${i}`, { parent, agent: i % 2 ? 'researcher' : 'reviewer', task: `Look at part ${i}` }));
    ids.push(`r${i}`);
  }
  for (const id of ids) {
    for (let t = 0; t < toolsPerRun; t++) {
      events.push(script.toolStarted(id, `${id}-t${t}`, 'read_file', { path: `src/file${t}.ts` }));
      events.push(script.toolFinished(id, `${id}-t${t}`, 'read_file', `contents of file ${t}`));
    }
  }
  for (const id of ids.slice().reverse()) events.push(script.finished(id, 'ok', `Finished **${id}**.`));
  return events;
}
