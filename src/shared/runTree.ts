import type { RunEvent } from './events';
import type { ToolCallNode, RunNode, FileChangeNode, RunChanges, RunTree } from './runTreeNodes';
import { ZERO_USAGE } from './usage';

export type {
  RunState,
  ApprovalOutcome,
  ToolCallNode,
  RunNode,
  RunRevert,
  HookRunNode,
  FileChangeNode,
  RunChanges,
  RunMessage,
  RetryState,
  RunTree,
} from './runTreeNodes';

/**
 * The run tree: what the webview shows, what the CLI prints and what the store folds on load.
 * One pure reducer serves all three. Folding copies the tree's containers once per batch and each
 * touched node once, so a batch of thousands of events costs what it touches, not the tree's size.
 */

export const EMPTY_TREE: RunTree = Object.freeze({ runs: {}, roots: [], lastSeq: {}, version: 0 });

/** Folds one event. Pure: the given tree is not changed. */
export function reduceRunTree(tree: RunTree, event: RunEvent): RunTree {
  return foldRunEvents(tree, [event]);
}

/** Folds a batch of events in order. Pure: the given tree is not changed. */
export function foldRunEvents(tree: RunTree, events: readonly RunEvent[]): RunTree {
  if (events.length === 0) return tree;
  const draft = new Draft(tree);
  for (const e of events) draft.apply(e);
  return draft.finish();
}

class Draft {
  private readonly runs: Record<string, RunNode>;
  private roots: string[] | undefined;
  private readonly lastSeq: Record<string, number>;
  private readonly copied = new Set<string>();
  private applied = 0;

  constructor(private readonly tree: RunTree) {
    this.runs = { ...tree.runs };
    this.lastSeq = { ...tree.lastSeq };
  }

  finish(): RunTree {
    if (this.applied === 0) return this.tree;
    return {
      runs: this.runs,
      roots: this.roots ?? this.tree.roots,
      lastSeq: this.lastSeq,
      version: this.tree.version + 1,
    };
  }

  /** A writable copy of the node, made at most once per batch. */
  private node(runId: string): RunNode | undefined {
    const n = this.runs[runId];
    if (!n || this.copied.has(runId)) return n;
    const copy: RunNode = {
      ...n,
      toolCalls: n.toolCalls.slice(),
      children: n.children.slice(),
      warnings: n.warnings.slice(),
      messages: n.messages.slice(),
    };
    this.runs[runId] = copy;
    this.copied.add(runId);
    return copy;
  }

  private toolCall(run: RunNode, toolCallId: string): ToolCallNode | undefined {
    // Recent calls are the likely target: search from the end.
    for (let i = run.toolCalls.length - 1; i >= 0; i--) {
      const call = run.toolCalls[i]!;
      if (call.toolCallId === toolCallId) {
        const copy = { ...call };
        run.toolCalls[i] = copy;
        return copy;
      }
    }
    return undefined;
  }

  apply(e: RunEvent): void {
    // seq rises strictly per thread, so an event at or below the last one folded is a repeat: a
    // snapshot and the live stream that overlaps it (subscribe first, then load) fold each event once.
    const prev = this.lastSeq[e.threadId];
    if (prev !== undefined && e.seq <= prev) return;
    this.lastSeq[e.threadId] = e.seq;
    this.applied++;
    if (e.kind === 'run.started') return this.start(e);
    const run = this.node(e.runId);
    if (!run) return; // an event for a run this tree never saw start: nothing to attach it to
    // Any sign of life but another stall warning ends a stall.
    if (run.stalled && !(e.kind === 'warning' && e.code === 'stall')) delete run.stalled;
    switch (e.kind) {
      case 'text.delta':
        if (run.retrying) delete run.retrying;
        run.text += e.text;
        return;
      case 'run.reasoning':
        run.reasoning = run.reasoning ? `${run.reasoning}\n\n${e.text}` : e.text;
        return;
      case 'tool.started':
        if (run.retrying) delete run.retrying;
        run.toolCalls.push({ toolCallId: e.toolCallId, tool: e.tool, input: e.input, state: 'running', startedAt: e.ts });
        return;
      case 'tool.finished': {
        const call = this.toolCall(run, e.toolCallId);
        if (call) {
          call.state = e.isError ? 'error' : 'done';
          call.output = e.output;
          call.finishedAt = e.ts;
        } else {
          run.toolCalls.push({
            toolCallId: e.toolCallId,
            tool: e.tool,
            input: undefined,
            state: e.isError ? 'error' : 'done',
            output: e.output,
            finishedAt: e.ts,
          });
        }
        return;
      }
      case 'approval.requested': {
        const call = this.toolCall(run, e.toolCallId);
        const approval = {
          approvalId: e.approvalId,
          ...(e.reason === undefined ? {} : { reason: e.reason }),
          ...(e.preview === undefined ? {} : { preview: e.preview }),
        };
        if (call) call.approval = approval;
        else run.toolCalls.push({ toolCallId: e.toolCallId, tool: e.tool, input: e.input, state: 'running', approval, startedAt: e.ts });
        return;
      }
      case 'approval.resolved': {
        const call = this.toolCall(run, e.toolCallId);
        if (call?.approval) call.approval = { ...call.approval, decision: e.decision, ...(e.cancelled ? { cancelled: e.cancelled } : {}) };
        return;
      }
      case 'run.finished':
        if (run.retrying) delete run.retrying;
        run.state = e.status;
        run.output = e.output;
        // A child's output is its final report, the end of what it streamed: the tree keeps all of it.
        if (e.output && !run.text.endsWith(e.output)) run.text = e.output;
        if (e.error !== undefined) run.error = e.error;
        if (e.bailed) run.bailed = true;
        run.usage = e.usage;
        run.durationMs = e.durationMs;
        run.finishedAt = e.ts;
        this.closeCalls(run);
        return;
      case 'warning':
        run.warnings.push(e.message);
        if (e.code === 'stall' && run.state === 'running') run.stalled = true;
        return;
      case 'run.config': {
        const { v: _v, threadId: _t, runId: _r, seq: _s, ts: _ts, kind: _k, ...config } = e;
        run.config = config;
        return;
      }
      case 'run.message':
        run.messages.push({ from: e.from, text: e.text, ts: e.ts, afterToolCalls: run.toolCalls.length });
        return;
      case 'run.usage':
        // Live while the run works; its run.finished has the final count.
        if (run.state === 'running') run.usage = e.usage;
        return;
      case 'run.retrying':
        run.retrying = { attempt: e.attempt, maxRetries: e.maxRetries, error: e.error, delayMs: e.delayMs, retryAt: e.ts + e.delayMs };
        return;
      case 'file.changed':
        run.changes = withFileChange(run.changes, e);
        return;
      case 'run.reverted': {
        const files = run.reverted ? run.reverted.files.slice() : [];
        for (const path of e.files) if (!files.includes(path)) files.push(path);
        run.reverted = { files, ts: e.ts };
        return;
      }
      case 'hook.ran': {
        const { event, command, source, exitCode, durationMs, decision, note, toolCallId } = e;
        run.hooks = [
          ...(run.hooks ?? []),
          {
            event,
            command,
            source,
            exitCode,
            durationMs,
            decision,
            ...(note === undefined ? {} : { note }),
            ...(toolCallId ? { toolCallId } : {}),
          },
        ];
        return;
      }
    }
  }

  /**
   * A finished run has no live calls: a call still running ends as an error, and an approval still
   * waiting expires, so no Approve/Deny is offered for a run that can no longer act on it. Threads
   * written before the engine closed its calls itself read the same way.
   */
  private closeCalls(run: RunNode): void {
    for (let i = 0; i < run.toolCalls.length; i++) {
      const call = run.toolCalls[i]!;
      const waiting = call.approval !== undefined && call.approval.decision === undefined;
      if (call.state !== 'running' && !waiting) continue;
      const closed: ToolCallNode = { ...call };
      if (closed.state === 'running') {
        closed.state = 'error';
        closed.cutOff = true;
        closed.finishedAt ??= run.finishedAt;
      }
      if (waiting) {
        // A run cut off by a reload reads `interrupted` when its thread is next loaded; a stopped one `cancelled`.
        const cancelled = run.state === 'interrupted' ? 'reloaded' : run.state === 'cancelled' ? 'stopped' : undefined;
        closed.approval = { ...call.approval!, decision: 'expired', ...(cancelled ? { cancelled } : {}) };
      }
      run.toolCalls[i] = closed;
    }
  }

  private start(e: Extract<RunEvent, { kind: 'run.started' }>): void {
    const existing = this.runs[e.runId];
    this.runs[e.runId] = {
      runId: e.runId,
      threadId: e.threadId,
      parentRunId: e.parentRunId,
      ...(e.parentToolCallId === undefined ? {} : { parentToolCallId: e.parentToolCallId }),
      agent: e.agent,
      agentPath: e.agentPath,
      depth: e.depth,
      task: e.task,
      model: e.model,
      ...(e.modelVia === undefined ? {} : { modelVia: e.modelVia }),
      state: 'running',
      text: '',
      usage: ZERO_USAGE,
      startedAt: e.ts,
      toolCalls: [],
      // Children may have been announced before a replayed start; keep them.
      children: existing ? existing.children.slice() : [],
      warnings: [],
      messages: [],
    };
    this.copied.add(e.runId);
    const parent = e.parentRunId === null ? undefined : this.node(e.parentRunId);
    if (parent) {
      if (!parent.children.includes(e.runId)) parent.children.push(e.runId);
    } else if (!(this.roots ?? this.tree.roots).includes(e.runId)) {
      this.roots = [...(this.roots ?? this.tree.roots), e.runId];
    }
  }
}

/** The run's changes with one more: a file changed again keeps its first before and takes the new after. */
function withFileChange(changes: RunChanges | undefined, e: Extract<RunEvent, { kind: 'file.changed' }>): RunChanges {
  const files = changes ? changes.files.slice() : [];
  const at = files.findIndex((f) => f.path === e.path);
  const prev = at >= 0 ? files[at] : undefined;
  const file: FileChangeNode = {
    path: e.path,
    beforeHash: prev ? prev.beforeHash : e.beforeHash,
    afterHash: e.afterHash,
    added: (prev?.added ?? 0) + e.added,
    removed: (prev?.removed ?? 0) + e.removed,
    attribution: prev?.attribution === 'overlap' ? 'overlap' : e.attribution,
  };
  if (prev) files[at] = file;
  else files.push(file);
  return { files, added: (changes?.added ?? 0) + e.added, removed: (changes?.removed ?? 0) + e.removed };
}
