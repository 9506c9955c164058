import { randomUUID } from 'node:crypto';
import { acpConsentKey, type AcpConsent } from '../../config/acp/acpConsentKey';
import type { AcpAgent } from '../../config/profiles/profile';
import { createApprovalGate } from '../../tools/approvalGate';
import type { RunWork } from '../delegation/runWork';
import { declaredByUser } from './acpTrust';

/** The pseudo-tool under which a workspace agent's consent shows on the run's node. */
export const ACP_AGENT_APPROVAL = 'acp_agent';

/** One question per declaration at a time: concurrent runs of one agent share the answer. */
const asking = new WeakMap<AcpConsent, Map<string, Promise<boolean | undefined>>>();

/**
 * Whether this run's external agent may start; why not, if not. One the user declared (their
 * settings, their home agent folders) starts as declared. One the workspace declared starts when
 * this very declaration (acpConsentKey: command, arguments, environment, where it was written and
 * the workspace scripts it names) was allowed: by the CLI's --allow-acp at start, by an answer the
 * extension remembers for the workspace, or now, asked on the run's node as MCP servers are. Two
 * declarations of one name never start.
 */
export async function acpConsentProblem(work: RunWork, acp: AcpAgent): Promise<string | undefined> {
  const { session, run } = work;
  const { profile } = work.request;
  const shown = [acp.command, ...acp.args].join(' ');
  if (profile.acpConflict)
    return `The "${profile.name}" agent is declared differently in ${profile.acpConflict.join(' and ')}, so it is not started: the name does not say which program you meant. Remove or rename all but one of them.`;
  if (declaredByUser(profile)) return undefined;
  const root = session.isolation?.root ?? session.workspace.root;
  const consent = session.acpConsent ?? {};
  const key = acpConsentKey(root, { ...profile, acp });
  if (consent.allowedKeys?.includes(key) || consent.memory?.isApproved(key)) return undefined;
  const questions = asking.get(consent) ?? new Map<string, Promise<boolean | undefined>>();
  asking.set(consent, questions);
  let answer = questions.get(key);
  if (!answer) {
    answer = ask(work, acp, shown).finally(() => questions.delete(key));
    questions.set(key, answer);
  }
  const approved = await answer;
  if (approved) {
    consent.memory?.remember(key);
    return undefined;
  }
  const why = run.signal.aborted ? 'the run was stopped before anyone answered' : 'it was not approved';
  return (
    `The "${profile.name}" agent is an external program declared by the workspace (${profile.source}): "${shown}"${envNote(acp)}. ` +
    `It runs as you, outside the command sandbox, so it starts only with your consent, and ${why}. ` +
    `To allow it: in the editor, approve it when its node asks (remembered for this workspace until its declaration or the scripts it names change); in the CLI, pass --allow-acp ${profile.name}.`
  );
}

/** Asks on the run's node, through the approval flow of a tool call; undefined when no one answered. */
async function ask(work: RunWork, acp: AcpAgent, shown: string): Promise<boolean | undefined> {
  const { session, run, emitter } = work;
  const { profile } = work.request;
  const emit = emitter.emit;
  const gate = createApprovalGate({
    settings: {
      mode: session.settings.approval,
      root: session.workspace.root,
      autoApproveCommands: session.settings.autoApproveCommands,
    },
    approver: session.approver,
    emit,
    agent: profile.name,
  });
  const toolCallId = `acp_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  const input = {
    agent: profile.name,
    source: profile.source,
    command: acp.command,
    args: acp.args,
    ...(Object.keys(acp.env).length ? { env: acp.env } : {}),
  };
  emit({ kind: 'tool.started', toolCallId, tool: ACP_AGENT_APPROVAL, input });
  const reason = `${profile.source} declares the external agent "${profile.name}", which runs \`${shown}\`${envNote(acp)} as you, outside the command sandbox. Start it? The answer is remembered for this workspace until the declaration or the scripts it names change.`;
  const context = { runId: run.runId, threadId: run.threadId, toolCallId, signal: run.signal };
  const result = await gate.check(ACP_AGENT_APPROVAL, { kind: 'workspaceCode', reason }, input, context);
  emit({
    kind: 'tool.finished',
    toolCallId,
    tool: ACP_AGENT_APPROVAL,
    output: result.ok ? `approved: the external agent "${profile.name}" starts` : { error: result.error },
    isError: !result.ok,
  });
  return run.signal.aborted ? undefined : result.ok;
}

/** The environment the declaration sets, shown with the command: NODE_OPTIONS and the like change what runs. */
function envNote(acp: AcpAgent): string {
  const entries = Object.entries(acp.env);
  return entries.length ? ` with ${entries.map(([name, value]) => `${name}=${value}`).join(' ')}` : '';
}
