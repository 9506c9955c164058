import type { ModelMessage } from 'ai';
import type { RunEventOf } from '../../../shared/events';
import type { RunWork } from '../delegation/runWork';
import type { AcpSessions, KeptAgent } from './acpSessions';
import { TurnHandlers } from './acpTurnHandlers';
import type { AcpAgentSession, AcpLaunch, AcpSessionVia } from './acpTypes';

/** The agent a run of a child thread works with, and how it came to it. */
export interface ThreadAgent extends KeptAgent {
  via: AcpSessionVia;
  /** What the agent must be told of the thread's earlier runs (a new session of a continued thread), else ''. */
  context: string;
  /** Said on the node when the thread's earlier session could not be carried on. */
  warning?: string;
}

/**
 * The agent for a run of a child thread (issue 44): the process kept from the thread's last run
 * (same process, same session), else a new process that loads the thread's last session
 * (`session/load`) where the agent offers it, else a new session told the thread's earlier tasks
 * and results, and the node says so.
 */
export async function threadAgent(work: RunWork, launch: AcpLaunch, key: string, sessions: AcpSessions | undefined): Promise<ThreadAgent> {
  const { run, request, session } = work;
  const kept = await sessions?.take(run.threadId, key);
  if (kept) return { ...kept, via: 'kept', context: '' };
  const continued = request.history.length > 0;
  const earlier = continued ? await lastSession(work) : undefined;
  const handlers = new TurnHandlers();
  const { startAcpAgent } = await import('./acpConnection');
  const agent: AcpAgentSession = await startAcpAgent({ ...launch, ...(earlier ? { resume: earlier.sessionId } : {}) }, handlers);
  if (!continued || agent.via === 'loaded') return { agent, handlers, key, via: agent.via, context: '' };
  const why =
    agent.loadRefused ??
    (agent.loadSession
      ? "no session of the thread's last run was recorded"
      : `${agent.agentName} does not offer session/load, and its process from the thread's last run has ended`);
  session.logger.debug(`ACP thread ${run.threadId}: a new session (${why}).`);
  return {
    agent,
    handlers,
    key,
    via: 'new',
    context: contextOf(request.history),
    warning: `A new session of ${agent.agentName}: ${why}. It was given the thread's earlier tasks and results as context instead.`,
  };
}

/** The thread's last recorded ACP session (its acp.session event). */
async function lastSession(work: RunWork): Promise<RunEventOf<'acp.session'> | undefined> {
  const thread = await work.session.store.get(work.run.threadId).catch(() => undefined);
  return thread?.events.findLast((e): e is RunEventOf<'acp.session'> => e.kind === 'acp.session');
}

/** The thread's earlier turns as text, before the new task. */
function contextOf(history: readonly ModelMessage[]): string {
  const turns = history.flatMap((m) => {
    const text = textOf(m.content).trim();
    if (!text || (m.role !== 'user' && m.role !== 'assistant')) return [];
    return [`${m.role === 'user' ? 'Task' : 'Your answer'}:\n${text}`];
  });
  return `[Earlier in this conversation (a new session: you do not remember it otherwise)]\n\n${turns.join('\n\n')}\n\n[The next task]\n\n`;
}

function textOf(content: ModelMessage['content']): string {
  if (typeof content === 'string') return content;
  return content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}
