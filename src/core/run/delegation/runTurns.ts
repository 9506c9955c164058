import type { ModelMessage } from 'ai';
import type { Usage } from '../../../shared/events';
import { errorText } from '../../../shared/errorText';
import { ZERO_USAGE, addUsage } from '../../../shared/usage';
import { runAgent, type AgentRunOutcome } from '../agent/runAgent';
import { budgetSpentText } from '../budget/budgetedModel';
import { DEFAULT_RETRY_POLICY } from '../../models/retryPolicy';
import { SUPERVISOR } from '../../config/settings/engineSettings';
import type { Profile } from '../../config/profiles/profile';
import { runConfigOf } from '../runConfig/runConfigEvent';
import { runExternal } from '../external/runExternal';
import { runCommandLauncher, runTools } from '../../tools/runTools';
import { delegateTaskTool } from './delegateTask';
import type { DelegationDeps } from './delegationTypes';
import type { RunHandle } from './runHandle';
import { runModel } from './runModel';
import type { Session } from './session';
import { backgroundRunsTool } from './backgroundRuns';
import { subagentPrompt, supervisorPrompt } from './supervisorPrompt';
import { hookScene, MAX_STOP_CONTINUATIONS, openingHooks, stopHooks } from '../hooks/runHooks';
import { preloadedSkills, skillsListing } from './skillsPrompt';
import type { Skill } from '../../config/skills/skill';
import { SKILL_TOOL } from '../../config/agentFiles/toolNames';
import type { AnyToolSpec } from '../../tools/toolSpec';
import type { EmitRunEvent } from '../../runEvents';
import type { RunEnding, RunWork } from './runWork';

export const NO_MODEL =
  'No model is configured. Set "subagents.model" in your settings, for example "openai-compatible:http://localhost:11434/v1#llama3.1" ' +
  'for a local Ollama, or "scripted:path/to/script.json" to play a script.';

/**
 * The work of one run: the agent loop on its task, then a new turn for each report of a background
 * child its model has not seen, until nothing is pending. Never throws: a failure is an ending.
 */
export async function runTurns(work: RunWork): Promise<RunEnding> {
  const { session, run, request, setup } = work;
  const { profile } = request;
  // An external agent (ACP) does the work itself: no model, no loop of ours.
  if (profile.acp) return runExternal(work, profile.acp);
  if (!run.modelSpec) return { status: 'error', output: '', usage: ZERO_USAGE, error: NO_MODEL };
  let cancelTimer = () => {};
  let timedOut = false;
  let output = '';
  let report = '';
  let usage = ZERO_USAGE;
  let watched: ReturnType<typeof runModel> | undefined;
  try {
    watched = runModel(session, run, work.emitter, session.resolver.resolve(run.modelSpec, { agent: profile.name, task: request.task }));
    const { model, emit } = watched;
    const delegates = delegatesFor(session, run, profile);
    const deps: DelegationDeps = { session, caller: run, delegates, emit, launch: work.launch };
    const delegation = delegates.length > 0 ? [delegateTaskTool(deps), backgroundRunsTool(deps)] : [];
    // The request's hooks (src/core/access/hooks/), on this run's node; continue: false ends the run with the hook's reason.
    const hooks = session.hooks;
    // One launcher for the run's commands and its hooks: the same sandbox, temp folders and environment.
    const commands = runCommandLauncher({ ...session, emit });
    const scene = hooks ? hookScene(session, run, emit, commands) : undefined;
    const stopRun = (reason: string) => run.bailWith(run.agent, `Stopped by a hook: ${reason}`);
    const hooked = hooks && scene ? { runner: hooks.runner, scene, stopRun } : undefined;
    const skills = session.profiles.skills;
    const selection = await runTools({ ...session, profile, depth: run.depth, emit, delegation, run, hooks: hooked, skills, commands });
    const project = session.profiles.projectInstructions;
    const sections = skillSections(profile, skills, selection.tools, emit);
    const instructions =
      profile.name === SUPERVISOR
        ? supervisorPrompt(delegates, session.settings.supervisor, project, sections)
        : subagentPrompt(profile, delegates, project, sections);
    emit({
      kind: 'run.config',
      ...runConfigOf({
        profile,
        model: { ...setup.model, effective: run.modelSpec },
        tools: selection,
        ...(delegates.length === 0 ? { noDelegation: noDelegationReason(session, run) } : {}),
        limits: setup.limits,
        systemPrompt: instructions,
        taskMessage: request.prompt,
        ...(project ? { projectInstructions: project } : {}),
      }),
    });
    const maxSteps = setup.limits.maxSteps.value;
    const timeout = setup.limits.timeoutMs;
    if (timeout) {
      cancelTimer = session.schedule(timeout.value, () => {
        timedOut = true;
        run.cancel(new Error('timeout'));
      });
    }
    const turn = (messages: ModelMessage[]): Promise<AgentRunOutcome> =>
      runAgent({
        model,
        modelSpec: run.modelSpec,
        instructions,
        messages,
        tools: selection.tools,
        hiddenTools: selection.hidden,
        maxSteps,
        signal: run.signal,
        identity: { runId: run.runId, threadId: run.threadId },
        emit,
        slot: work.slot,
        takeArrivals: () => mailMessages(run),
        shouldStop: () => run.bail !== undefined,
        outOfBudget: () => run.budget.spent() !== undefined,
        // A provider that keeps failing stops being retried once it has failed for as long as the
        // idle timeout allows a silent call: the parent hears of it in minutes.
        retryPolicy: { ...DEFAULT_RETRY_POLICY, maxTotalMs: session.settings.modelIdleTimeoutMs },
        ...(session.tracing ? { telemetry: session.tracing.aiTelemetry(run.runId, run.agent) } : {}),
      });
    const opening = hooks && scene ? await openingHooks(hooks, scene, run, request.task, request.history.length > 0) : { context: [] };
    if (opening.blocked !== undefined)
      return { status: 'cancelled', output: '', usage, error: `A UserPromptSubmit hook blocked the prompt: ${opening.blocked}` };
    if (opening.stop !== undefined) return { status: 'ok', output: `Stopped by a hook: ${opening.stop}`, usage, bailed: true };
    const prompt = opening.context.length ? `${request.prompt}\n\n${opening.context.join('\n')}` : request.prompt;
    let outcome = await turn([...request.history, { role: 'user', content: prompt }]);
    ({ output, report, usage } = outcome);
    // Background children still working: wait, and give each report (or steer) not yet seen a new turn.
    while (outcome.status === 'ok' && !run.bail && !run.signal.aborted && !run.budget.spent()) {
      if (!run.hasMail) {
        const pending = run.pendingBackground();
        if (pending.length === 0) break;
        // A child ending, or a message for this run (a steer): either may need a turn.
        await Promise.race([...pending.map((c) => c.done), run.nextMail()]);
        // A finished child's announcement is posted before this resumes; none means none is coming.
        if (!run.hasMail && run.pendingBackground().every((c) => c.result)) break;
        continue;
      }
      if (output) emit({ kind: 'text.delta', text: '\n\n' });
      outcome = await turn([...outcome.messages, ...mailMessages(run)]);
      output = output && outcome.output ? `${output}\n\n${outcome.output}` : output || outcome.output;
      report = outcome.report || report;
      usage = addUsage(usage, outcome.usage);
    }
    // Stop / SubagentStop hooks may send the model back to work, a few times at most.
    for (let n = 0; hooks && scene && outcome.status === 'ok' && !run.bail && !run.signal.aborted && n <= MAX_STOP_CONTINUATIONS; n++) {
      const after = await stopHooks(hooks, scene, run, n > 0);
      if (after.stop !== undefined) stopRun(after.stop);
      if (after.continueWith === undefined || n === MAX_STOP_CONTINUATIONS) break;
      outcome = await turn([...outcome.messages, { role: 'user', content: `A stop hook asks you to go on: ${after.continueWith}` }]);
      output = output && outcome.output ? `${output}\n\n${outcome.output}` : output || outcome.output;
      report = outcome.report || report;
      usage = addUsage(usage, outcome.usage);
    }
    // Its work is done: a message now would never be seen, so it is answered that the run has finished.
    run.closeInbox();
    // Its last text is written before its ending is decided: a store that refuses it stops the run.
    work.emitter.flushText();
    if (outcome.status === 'aborted' || run.signal.aborted) return stopped(work, { output, usage, timedOut });
    if (run.bail) return { status: 'ok', output: run.bail.output, usage, bailed: true };
    const spent = run.budget.spent();
    if (spent && (outcome.status !== 'ok' || run.hasMail || run.pendingBackground().length > 0))
      return { status: 'budget', output, usage, error: budgetSpentText(spent) };
    if (outcome.status === 'max_steps') return { status: 'max_steps', output, usage, error: outOfSteps(profile, maxSteps) };
    const status = outcome.status === 'budget' ? 'ok' : outcome.status;
    // A child that finished hands back its final report; its narration on the way stays in its thread.
    const result = status === 'ok' && run.depth > 0 && report ? report : output;
    return { status, output: result, usage, ...(outcome.error === undefined ? {} : { error: outcome.error }) };
  } catch (error) {
    // The model could not be made (a spec the resolver refuses), or a bug: the run ends, and says why.
    if (run.signal.aborted) return stopped(work, { output, usage, timedOut });
    return { status: 'error', output, usage, error: errorText(error) };
  } finally {
    run.closeInbox();
    watched?.stop();
    cancelTimer();
  }
}

/** The ending of a run that was stopped: by the store, its timeout, or a cancel. */
function stopped(work: RunWork, so: { output: string; usage: Usage; timedOut: boolean }): RunEnding {
  const { output, usage } = so;
  const failure = work.emitter.writeFailure;
  if (failure !== undefined)
    return { status: 'error', output, usage, error: `The run's thread could not be written (${failure}), so the run was stopped.` };
  const timeout = work.setup.limits.timeoutMs;
  if (so.timedOut && timeout)
    return { status: 'timeout', output, usage, error: `Timed out after ${timeout.value} ms (${timeout.source}).` };
  const by = work.run.stopCause;
  if (by === 'user')
    return { status: 'cancelled', output, usage, error: `Stopped by the user (the Stop button on its node in the panel). ${PARTIAL}` };
  if (by === 'parent') return { status: 'cancelled', output, usage, error: `Cancelled by its supervisor (background_runs). ${PARTIAL}` };
  return { status: 'cancelled', output, usage };
}

const PARTIAL = 'The output is what it had done by then.';

/** The skills' part of a run's prompt: its profile's preloaded skills, then the list it may load from (when it has load_skill). */
function skillSections(
  profile: Profile,
  skills: readonly Skill[] | undefined,
  tools: readonly AnyToolSpec[],
  emit: EmitRunEvent,
): string[] {
  const preload = preloadedSkills(profile.skills, skills);
  if (preload.missing.length > 0) {
    emit({
      kind: 'warning',
      code: 'tools',
      message: `The "${profile.name}" profile preloads ${preload.missing.map((n) => `"${n}"`).join(', ')}, but there is no such skill (a folder with a SKILL.md in .claude/skills, .github/skills or .agents/skills, here or under ~): it works without.`,
    });
  }
  const listing = skillsListing(
    skills,
    tools.some((t) => t.name === SKILL_TOOL),
  );
  return [preload.text, listing].filter(Boolean);
}

/** Why a run was given no delegation tools. */
function noDelegationReason(session: Session, run: RunHandle): string {
  const max = session.settings.maxDepth;
  if (run.depth >= max) return `the depth limit: subagents.maxDepth is ${max} and this run is at depth ${run.depth}`;
  return 'no agent it may delegate to (all are disabled, not allowed, or already on its path)';
}

function outOfSteps(profile: Profile, maxSteps: number): string {
  const whose = profile.maxSteps === undefined ? 'the default maxSteps' : `the "${profile.name}" profile's maxSteps`;
  return `Used all ${maxSteps} steps (${whose}) before finishing: the output is what it had by then.`;
}

/** The reports waiting for this run's model, as one user message each; the mailbox is emptied. */
function mailMessages(run: RunHandle): ModelMessage[] {
  return run.takeMail().map((a) => ({ role: 'user' as const, content: a.text }));
}

/** Whom this run may delegate to: none at the depth limit, never an agent already on its path. */
function delegatesFor(session: Session, run: RunHandle, profile: Profile): Profile[] {
  if (run.depth >= session.settings.maxDepth) return [];
  const enabled = session.profiles.profiles;
  const allow = profile.name === SUPERVISOR ? session.settings.supervisor.agents : profile.agents;
  const candidates = allow?.length ? allow.flatMap((name) => enabled.get(name) ?? []) : [...enabled.values()];
  return candidates.filter((p) => !run.agentPath.includes(p.name));
}
