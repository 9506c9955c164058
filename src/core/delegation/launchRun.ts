import { randomUUID } from 'node:crypto';
import type { ModelMessage } from 'ai';
import type { RunStatus, UnsequencedRunEvent, Usage } from '../../shared/events';
import { ZERO_USAGE } from '../../shared/usage';
import { runAgent } from '../agent/runAgent';
import type { EmitRunEvent } from '../agent/runEvents';
import { errorText } from '../agent/toAiTools';
import { DEFAULT_MAX_STEPS, SUPERVISOR } from '../engineSettings';
import type { Profile } from '../profiles/profile';
import { delegateTaskTool } from './delegateTask';
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
    controller,
    done: undefined as unknown as Promise<RunResult>,
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
  const finish = async (status: RunStatus, output: string, usage: Usage, error?: string): Promise<RunResult> => {
    // Children settle first: a parent never reports before the runs it is responsible for.
    const children = session.registry.all().filter((r) => r.parent === handle);
    await Promise.allSettled(children.map((c) => c.done));
    const durationMs = Math.max(0, session.clock.now() - startedAt);
    emit({ kind: 'run.finished', status, output, ...(error === undefined ? {} : { error }), usage, durationMs });
    finished = true;
    parentSignal?.removeEventListener('abort', onParentAbort);
    session.registry.remove(handle);
    return { agent: profile.name, runId, threadId: request.threadId, status, output, ...(error === undefined ? {} : { error }), usage, durationMs };
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
    const tools = delegates.length > 0 ? [delegateTaskTool({ session, caller: handle, delegates, emit, launch: (r) => launchRun(session, r) })] : [];
    const instructions = profile.name === SUPERVISOR ? supervisorPrompt(delegates, session.settings.supervisor) : subagentPrompt(profile, delegates);
    let timedOut = false;
    const timer = profile.timeoutMs
      ? setTimeout(() => {
          timedOut = true;
          controller.abort(new Error('timeout'));
        }, profile.timeoutMs)
      : undefined;
    try {
      const outcome = await runAgent({
        model,
        instructions,
        messages: [...request.history, { role: 'user', content: request.prompt }],
        tools,
        maxSteps: profile.maxSteps ?? DEFAULT_MAX_STEPS,
        signal: controller.signal,
        identity: { runId, threadId: request.threadId },
        emit,
      });
      if (outcome.status === 'aborted') {
        return timedOut
          ? finish('timeout', outcome.output, outcome.usage, `Timed out after ${profile.timeoutMs} ms (the "${profile.name}" profile's timeoutMs).`)
          : finish('cancelled', outcome.output, outcome.usage);
      }
      return finish(outcome.status, outcome.output, outcome.usage, outcome.error);
    } finally {
      clearTimeout(timer);
    }
  })().catch((error: unknown) => (finished ? Promise.reject(error) : finish('error', '', ZERO_USAGE, `Internal error: ${errorText(error)}`)));
  return handle;
}

/** Whom this run may delegate to: none at the depth limit, never an agent already on its path. */
function delegatesFor(session: Session, run: RunHandle, profile: Profile): Profile[] {
  if (run.depth >= session.settings.maxDepth) return [];
  const enabled = session.profiles.profiles;
  const allow = profile.name === SUPERVISOR ? session.settings.supervisor.agents : profile.agents;
  const candidates = allow?.length ? allow.flatMap((name) => enabled.get(name) ?? []) : [...enabled.values()];
  return candidates.filter((p) => !run.agentPath.includes(p.name));
}
