import { randomUUID } from 'node:crypto';
import type { ModelMessage } from 'ai';
import type { RunStatus, UnsequencedRunEvent, Usage } from '../../shared/events';
import { ZERO_USAGE, addUsage } from '../../shared/usage';
import { runAgent } from '../agent/runAgent';
import type { EmitRunEvent, RunEventBody } from '../agent/runEvents';
import { errorText } from '../../shared/errorText';
import { DEFAULT_MAX_STEPS, SUPERVISOR } from '../engineSettings';
import type { Profile } from '../profiles/profile';
import { runTools } from '../tools/runTools';
import { delegateTaskTool } from './delegateTask';
import { subagentTools } from './subagentTools';
import type { RunHandle, RunResult } from './runHandle';
import type { Session } from './session';
import { subagentPrompt, supervisorPrompt } from './supervisorPrompt';

export interface LaunchRequest {
  threadId: string;
  rootThreadId: string;
  parent: RunHandle | null;
  parentToolCallId?: string;
  profile: Profile;
  task: string;
  /** The user message the agent sees: the task plus any explicit context. */
  prompt: string;
  /** Earlier turns of this thread (empty for a fresh one). */
  history: ModelMessage[];
}

const NO_MODEL =
  'No model is configured. Set "subagents.model" in your settings, for example "openai-compatible:http://localhost:11434/v1#llama3.1" ' +
  'for a local Ollama, or "scripted:path/to/script.json" to play a script.';

/**
 * Starts one run and returns its handle at once. `run.started` is written before this returns,
 * so it follows whatever started the run; `run.finished` is written exactly once, after every
 * child of the run has settled, and nothing of the run is written after it.
 */
export function launchRun(session: Session, request: LaunchRequest): RunHandle {
  const { profile, parent } = request;
  const runId = `r_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  const controller = new AbortController();
  const modelSpec = profile.model ?? parent?.modelSpec ?? session.settings.model;
  let finished = false;
  const emit: EmitRunEvent = (body) => {
    if (finished) return;
    const event = { ...body, v: 1, threadId: request.threadId, runId, ts: session.clock.now() } as UnsequencedRunEvent;
    session.publish(session.store.append(event));
    const item = progressItem(body);
    if (item) {
      handle.progress.push(item);
      if (handle.progress.length > 3) handle.progress.shift();
    }
  };
  const handle: RunHandle = {
    runId,
    threadId: request.threadId,
    rootThreadId: request.rootThreadId,
    agent: profile.name,
    agentPath: [...(parent?.agentPath ?? []), profile.name],
    depth: parent ? parent.depth + 1 : 0,
    modelSpec,
    parent,
    ...(request.parentToolCallId === undefined ? {} : { parentToolCallId: request.parentToolCallId }),
    controller,
    done: undefined as unknown as Promise<RunResult>,
    children: new Map(),
    mailbox: [],
    announced: new Set(),
    progress: [],
  };
  emit({
    kind: 'run.started',
    parentRunId: parent?.runId ?? null,
    parentThreadId: parent?.threadId ?? null,
    ...(request.parentToolCallId === undefined ? {} : { parentToolCallId: request.parentToolCallId }),
    agent: profile.name,
    agentPath: [...handle.agentPath],
    depth: handle.depth,
    task: request.task,
    model: modelSpec,
  });
  session.registry.add(handle);

  // A cancelled parent cancels its children; the listener goes when the run ends (no leak per run).
  const parentSignal = parent?.controller.signal;
  const onParentAbort = () => controller.abort(parentSignal?.reason);
  if (parentSignal?.aborted) controller.abort(parentSignal.reason);
  else parentSignal?.addEventListener('abort', onParentAbort, { once: true });

  const startedAt = session.clock.now();
  const finish = async (status: RunStatus, output: string, usage: Usage, error?: string, bailed?: boolean): Promise<RunResult> => {
    // Children settle first: a parent never reports before the runs it is responsible for.
    const children = session.registry.all().filter((r) => r.parent === handle);
    await Promise.allSettled(children.map((c) => c.done));
    const durationMs = Math.max(0, session.clock.now() - startedAt);
    // Tokens of the whole subtree: this run's own plus every child's total.
    let totalUsage = usage;
    for (const c of handle.children.values()) if (c.result) totalUsage = addUsage(totalUsage, c.result.totalUsage ?? c.result.usage);
    const extra = { ...(error === undefined ? {} : { error }), ...(bailed ? { bailed } : {}) };
    emit({ kind: 'run.finished', status, output, ...extra, usage, totalUsage, durationMs });
    finished = true;
    parentSignal?.removeEventListener('abort', onParentAbort);
    session.registry.remove(handle);
    return { agent: profile.name, runId, threadId: request.threadId, status, output, ...extra, usage, totalUsage, durationMs };
  };

  handle.done = (async () => {
    if (!modelSpec) return finish('error', '', ZERO_USAGE, NO_MODEL);
    let model;
    try {
      model = session.resolver.resolve(modelSpec, { agent: profile.name, task: request.task });
    } catch (error) {
      return finish('error', '', ZERO_USAGE, errorText(error));
    }
    const delegates = delegatesFor(session, handle, profile);
    const deps = { session, caller: handle, delegates, emit, launch: (r: LaunchRequest) => launchRun(session, r) };
    const delegation = delegates.length > 0 ? [delegateTaskTool(deps), ...subagentTools(deps)] : [];
    const { tools, hidden } = runTools({ ...session, profile, depth: handle.depth, emit, delegation });
    const instructions = profile.name === SUPERVISOR ? supervisorPrompt(delegates, session.settings.supervisor) : subagentPrompt(profile, delegates);
    let timedOut = false;
    const timer = profile.timeoutMs
      ? setTimeout(() => {
          timedOut = true;
          controller.abort(new Error('timeout'));
        }, profile.timeoutMs)
      : undefined;
    try {
      const turn = (messages: ModelMessage[]) =>
        runAgent({
          model,
          modelSpec,
          instructions,
          messages,
          tools,
          hiddenTools: hidden,
          maxSteps: profile.maxSteps ?? DEFAULT_MAX_STEPS,
          signal: controller.signal,
          identity: { runId, threadId: request.threadId },
          emit,
          takeArrivals: () => takeMail(handle),
          shouldStop: () => handle.bail !== undefined,
        });
      let outcome = await turn([...request.history, { role: 'user', content: request.prompt }]);
      let { output, usage } = outcome;
      // Background children still working: wait, and give each report that was not seen a new turn.
      while (outcome.status === 'ok' && !handle.bail && !controller.signal.aborted) {
        if (handle.mailbox.length === 0) {
          const pending = [...handle.children.values()].filter((c) => c.background && !c.result);
          if (pending.length === 0) break;
          await Promise.race(pending.map((c) => c.handle.done));
          continue;
        }
        if (output) emit({ kind: 'text.delta', text: '\n\n' });
        outcome = await turn([...outcome.messages, ...takeMail(handle)]);
        output = output && outcome.output ? `${output}\n\n${outcome.output}` : output || outcome.output;
        usage = addUsage(usage, outcome.usage);
      }
      if (outcome.status === 'aborted' || controller.signal.aborted) {
        return timedOut
          ? finish('timeout', output, usage, `Timed out after ${profile.timeoutMs} ms (the "${profile.name}" profile's timeoutMs).`)
          : finish('cancelled', output, usage);
      }
      if (handle.bail) return finish('ok', handle.bail.output, usage, undefined, true);
      return finish(outcome.status, output, usage, outcome.error);
    } finally {
      clearTimeout(timer);
    }
  })().catch((error: unknown) => (finished ? Promise.reject(error) : finish('error', '', ZERO_USAGE, `Internal error: ${errorText(error)}`)));
  return handle;
}

/** The reports waiting for this run's model, as one user message each; the mailbox is emptied. */
function takeMail(run: RunHandle): ModelMessage[] {
  const mail = run.mailbox;
  run.mailbox = [];
  return mail.map((a) => ({ role: 'user' as const, content: a.text }));
}

/** A line for subagent_status: what the run did last. Text deltas are too fine to list. */
function progressItem(body: RunEventBody): string | undefined {
  switch (body.kind) {
    case 'tool.started':
      return `called ${body.tool}`;
    case 'tool.finished':
      return `${body.tool} ${body.isError ? 'failed' : 'returned'}`;
    case 'warning':
      return `warning: ${body.message}`;
    case 'approval.requested':
      return `waiting for approval of ${body.tool}`;
    default:
      return undefined;
  }
}

/** Whom this run may delegate to: none at the depth limit, never an agent already on its path. */
function delegatesFor(session: Session, run: RunHandle, profile: Profile): Profile[] {
  if (run.depth >= session.settings.maxDepth) return [];
  const enabled = session.profiles.profiles;
  const allow = profile.name === SUPERVISOR ? session.settings.supervisor.agents : profile.agents;
  const candidates = allow?.length ? allow.flatMap((name) => enabled.get(name) ?? []) : [...enabled.values()];
  return candidates.filter((p) => !run.agentPath.includes(p.name));
}
