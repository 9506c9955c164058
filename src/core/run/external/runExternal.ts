import type { AcpAgent } from '../../config/profiles/profile';
import { createApprovalGate } from '../../tools/approvalGate';
import { runTools } from '../../tools/runTools';
import { withTakenKeys } from '../../access/secrets/processKeys';
import { errorText } from '../../../shared/errorText';
import { ZERO_USAGE } from '../../../shared/usage';
import type { Usage } from '../../../shared/events';
import { runConfigOf } from '../runConfig/runConfigEvent';
import { budgetSpentText } from '../budget/budgetedModel';
import type { RunEnding, RunWork } from '../delegation/runWork';
import { isPackageRunner, packageRunnerFolder } from '../../access/commands/packageRunner';
import { acpFileServer } from './acpFiles';
import { answerPermission } from './acpPermissions';
import { acpEnvironment } from './acpTrust';
import { acpConsentProblem } from './acpConsent';
import type { AcpAgentSession } from './acpTypes';
import { declarationKey } from './acpSessions';
import { threadAgent, type ThreadAgent } from './acpThreadAgent';
import { AcpUpdateMapper } from './acpUpdates';

/** How long an agent may take to answer initialize and session/new (a slow npx download included). */
export const ACP_START_TIMEOUT_MS = 60_000;
/** One message from the agent may be this large (the SDK's default is larger); a larger one ends it. */
export const ACP_MAX_MESSAGE_BYTES = 8 * 1024 * 1024;
/** A stopped agent gets this long to go before its process group is killed. */
const STOP_GRACE_MS = 1500;

/**
 * A run whose profile has `acp`: an external agent does the work instead of our model loop. It is
 * started for the run's thread (or taken over from the thread's last run: acpThreadAgent.ts), sent
 * the task as a prompt (and each message sent to the run meanwhile as the next prompt), and kept
 * for the thread's next run after a clean end (acpSessions.ts), else ended with the run. What it says, its tool calls and plan land on the run's
 * node (acpUpdates.ts); its file reads and writes go through our file layer (acpFiles.ts), its
 * permission requests through our approval gate (acpPermissions.ts). Never throws.
 */
export async function runExternal(work: RunWork, acp: AcpAgent): Promise<RunEnding> {
  const { session, run, request, emitter } = work;
  const { profile } = request;
  const emit = emitter.emit;
  const root = session.isolation?.root ?? session.workspace.root;
  const refused = await acpConsentProblem(work, acp);
  if (refused) return failed(refused);
  const environment = acpEnvironment(profile, acp, withTakenKeys());
  if ('error' in environment) return failed(environment.error);

  // Our file tools serve the agent's fs requests; the request's hooks are not run around them (not yet wired for ACP agents).
  const selection = await runTools({ ...session, profile, depth: run.depth, emit, delegation: [], run, hooks: undefined });
  const offered = (name: string) => selection.tools.find((t) => t.name === name && !selection.hidden.includes(name));
  emit({
    kind: 'run.config',
    ...runConfigOf({
      profile,
      model: { requested: null, effective: run.modelSpec, via: "an external agent over ACP (the profile's acp): it uses its own model" },
      tools: selection,
      noDelegation: 'it is an external agent (ACP): it uses its own tools, and ours only for files',
      limits: work.setup.limits,
      systemPrompt: `(An external agent over ACP: ${[acp.command, ...acp.args].join(' ')}. Its own instructions apply.)`,
      taskMessage: request.prompt,
    }),
  });
  const gate = createApprovalGate({
    settings: {
      mode: session.settings.approval,
      root,
      autoApproveCommands: session.settings.autoApproveCommands,
      allowCommandHint: session.approver?.allowCommandHint?.bind(session.approver),
    },
    approver: session.approver,
    emit,
    agent: profile.name,
  });
  // Agents that write to disk themselves (Claude Code's adapter does): each turn is compared before and after, as a command is.
  const turns = session.changes.forRun({
    runId: run.runId,
    agent: profile.name,
    workspace: session.workspace,
    emit,
    settledAt: session.isolation?.readyAt,
  });
  let turn = 0;
  const prompt = (agent: AcpAgentSession, text: string) =>
    turns.command(`acp_turn_${++turn}`, () => agent.prompt(text), { ownWritesRecorded: true });
  const files = acpFileServer({ read: offered('read_file'), write: offered('write_file') }, run, emit);
  const mapper = new AcpUpdateMapper(emit);

  let agent: AcpAgentSession | undefined;
  let timedOut = false;
  // usage_update says how much of its context is in use: its growth is charged to the run's budget
  // (and every budget above it); a budget used up ends the agent as a stop does.
  let charged = 0;
  let overBudget = false;
  const onUpdate = (update: Parameters<AcpUpdateMapper['apply']>[0]) => {
    mapper.apply(update);
    if (update.sessionUpdate !== 'usage_update' || !(update.used > charged)) return;
    run.budget.charge(update.used - charged);
    charged = update.used;
    if (!overBudget && run.budget.spent()) {
      overBudget = true;
      run.cancel(new Error('budget'));
    }
  };
  const timeout = work.setup.limits.timeoutMs;
  const cancelTimer = timeout
    ? session.schedule(timeout.value, () => {
        timedOut = true;
        run.cancel(new Error('timeout'));
      })
    : () => {};
  // A stop (the node's button, the parent, the timeout, a budget) cancels the turn and ends the process.
  const onAbort = () => void agent?.cancel().finally(() => agent?.close(STOP_GRACE_MS));
  run.signal.addEventListener('abort', onAbort, { once: true });
  // The thread's agent: kept from its last run, loaded, or new (acpThreadAgent.ts); kept again after a clean end.
  let opened: ThreadAgent | undefined;
  let keep = false;
  try {
    const launch = {
      command: acp.command,
      args: acp.args,
      env: environment.env,
      cwd: root,
      // `npx <agent>` started in the workspace would run a node_modules/.bin/<agent> planted there.
      ...(isPackageRunner(acp.command, acp.args) ? { processCwd: packageRunnerFolder() } : {}),
      startTimeoutMs: ACP_START_TIMEOUT_MS,
      maxMessageBytes: ACP_MAX_MESSAGE_BYTES,
      signal: run.signal,
    };
    const key = declarationKey(acp.command, acp.args, environment.env, root);
    opened = await threadAgent(work, launch, key, session.acpSessions);
    agent = opened.agent;
    opened.handlers.bind({
      update: onUpdate,
      requestPermission: (req, signal) => answerPermission(req, gate, root, run, AbortSignal.any([signal, run.signal])),
      readTextFile: (req, signal) => files.read(req, AbortSignal.any([signal, run.signal])),
      writeTextFile: (req, signal) => files.write(req, AbortSignal.any([signal, run.signal])),
    });
    emit({ kind: 'acp.session', sessionId: agent.sessionId, via: opened.via, loadSession: agent.loadSession });
    if (opened.warning) emit({ kind: 'warning', message: opened.warning });
    if (run.signal.aborted) onAbort();
    let stop = await prompt(agent, opened.context + request.prompt);
    // A message to the run while it worked is its next prompt, once the agent is quiet.
    while (stop === 'end_turn' && run.hasMail && !run.signal.aborted) {
      const mail = run
        .takeMail()
        .map((m) => m.text)
        .join('\n\n');
      emit({ kind: 'text.delta', text: '\n\n' });
      stop = await prompt(agent, mail);
    }
    run.closeInbox();
    work.emitter.flushText();
    mapper.closeOpen('The agent ended its turn without finishing this call.');
    const usage = usageOf(mapper.contextTokens);
    if (overBudget) return budgetEnding(work, mapper.output, usage);
    if (run.signal.aborted || stop === 'cancelled') return stoppedEnding(work, mapper.output, usage, timedOut);
    // A turn that ended as the agent meant it to: its process and session serve the thread's next run.
    keep = true;
    if (stop === 'refusal') return { status: 'error', output: mapper.output, usage, error: `${agent.agentName} refused the task.` };
    if (stop === 'max_tokens' || stop === 'max_turn_requests')
      return { status: 'max_steps', output: mapper.output, usage, error: `${agent.agentName} stopped: ${stop.replace(/_/g, ' ')}.` };
    return { status: 'ok', output: run.depth > 0 ? mapper.result : mapper.output, usage };
  } catch (error) {
    mapper.closeOpen('The agent stopped.');
    if (overBudget) return budgetEnding(work, mapper.output, usageOf(mapper.contextTokens));
    if (run.signal.aborted) return stoppedEnding(work, mapper.output, ZERO_USAGE, timedOut);
    return { status: 'error', output: mapper.output, usage: ZERO_USAGE, error: errorText(error) };
  } finally {
    run.signal.removeEventListener('abort', onAbort);
    run.closeInbox();
    cancelTimer();
    opened?.handlers.unbind();
    if (opened && keep && session.acpSessions && !run.signal.aborted) await session.acpSessions.keep(run.threadId, opened);
    else await agent?.close(STOP_GRACE_MS);
  }

  function failed(error: string): RunEnding {
    return { status: 'error', output: '', usage: ZERO_USAGE, error };
  }
}

function usageOf(contextTokens: number): Usage {
  return contextTokens ? { inputTokens: contextTokens, outputTokens: 0, totalTokens: contextTokens } : ZERO_USAGE;
}

function budgetEnding(work: RunWork, output: string, usage: Usage): RunEnding {
  const spent = work.run.budget.spent();
  return { status: 'budget', output, usage, error: spent ? budgetSpentText(spent) : 'Stopped at its token budget.' };
}

function stoppedEnding(work: RunWork, output: string, usage: Usage, timedOut: boolean): RunEnding {
  const timeout = work.setup.limits.timeoutMs;
  if (timedOut && timeout) return { status: 'timeout', output, usage, error: `Timed out after ${timeout.value} ms (${timeout.source}).` };
  const by = work.run.stopCause;
  if (by === 'user')
    return { status: 'cancelled', output, usage, error: 'Stopped by the user (the Stop button on its node in the panel).' };
  if (by === 'parent') return { status: 'cancelled', output, usage, error: 'Cancelled by its supervisor (background_runs).' };
  return { status: 'cancelled', output, usage };
}
