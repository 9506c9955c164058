import { newThreadId } from '../../core/storage/threads/newThreadId';
import type { PromptQueue } from '../../core/engine/requests/promptQueue';
import type { ProfileSet } from '../../core/config/profiles/profile';
import { findAgentId } from '../../shared/agentId';
import { errorText } from '../../shared/errorText';
import { oneLine } from '../../shared/oneLine';
import type { ChatCancellationToken, ChatContextShape, ChatRequestShape, ChatResultShape, ChatStreamShape } from './chatShapes';
import { followRequest, type ChatEngine } from './followRequest';

export interface ChatParticipantDeps {
  engine: ChatEngine;
  queue: PromptQueue;
  profiles(): ProfileSet;
  /** The command the closing button runs, with the thread id: it shows the thread in our panel. */
  showCommand: string;
}

/** `@subagents` in Copilot Chat's participant id, as package.json declares it. */
export const CHAT_PARTICIPANT_ID = 'subagents.chat';

/**
 * One request to `@subagents`: the same engine as the panel on a thread of its own (a chat's
 * follow-ups continue it: each answer names its thread in `metadata`), with the model the user
 * picked in the chat. The top agent's answer streams as markdown, each subagent is a progress
 * line, and a button opens the thread's tree in the panel. `/agents` lists the profiles;
 * `/run <agent> <task>` lets that agent answer the turn. Approvals wait in the panel (and its
 * notification when the panel does not show them), like any run's.
 */
export async function handleChatRequest(
  deps: ChatParticipantDeps,
  request: ChatRequestShape,
  context: ChatContextShape,
  stream: ChatStreamShape,
  token: ChatCancellationToken,
): Promise<ChatResultShape> {
  if (request.command === 'agents') {
    stream.markdown(agentList(deps.profiles()));
    return {};
  }
  let prompt = request.prompt.trim();
  let agent: string | undefined;
  if (request.command === 'run') {
    const profiles = deps.profiles().profiles;
    const picked = pickAgent(profiles, prompt);
    if (!picked) return refuse(stream, `There is no enabled agent "${prompt.split(/\s+/)[0] ?? ''}". ${available(profiles)}`);
    if (!picked.task) return refuse(stream, `Say what ${picked.agent} should do: \`/run <agent> <task>\`.`);
    agent = picked.agent;
    prompt = picked.task;
  } else if (request.command !== undefined) {
    return refuse(stream, `\`/${request.command}\` is not a command of @subagents: use \`/agents\` or \`/run <agent> <task>\`.`);
  }
  if (!prompt) return refuse(stream, 'Say what you want done.');
  const threadId = threadOf(context) ?? newThreadId();
  const model = `vscode-lm:${request.model.vendor}/${request.model.family}`;
  stream.progress(`${agent ?? 'The supervisor'} works on it with ${request.model.name}…`);
  let streamed = false;
  try {
    const finished = await followRequest(
      deps,
      { threadId, prompt, model, ...(agent ? { agent } : {}) },
      {
        text: (delta) => {
          streamed = true;
          stream.markdown(delta);
        },
        childStarted: (e) => stream.progress(`${e.agentPath.slice(1).join(' › ')}: ${oneLine(e.task, 80)}`),
        childFinished: (e, name) => stream.progress(`${name}: ${e.status === 'ok' ? 'done' : e.status}`),
        approval: (e) => stream.progress(`Waiting for your approval of ${e.tool} in the Subagents panel…`),
      },
      token,
    );
    // An answer that came back whole (a child's report handed up as is) was never streamed.
    if (!streamed && finished.output) stream.markdown(finished.output);
    stream.button({ command: deps.showCommand, title: 'Show the run tree in Subagents', arguments: [threadId] });
    if (finished.status === 'ok') return { metadata: { threadId } };
    const why = finished.error ? `: ${finished.error}` : '';
    stream.markdown(`\n\n*The run ended as ${finished.status}${why}*`);
    return { metadata: { threadId }, errorDetails: { message: `The run ended as ${finished.status}${why}` } };
  } catch (error) {
    return { metadata: { threadId }, ...refuse(stream, errorText(error)) };
  }
}

/** `/run`'s agent: an id as the first word, or a display name (which may have spaces) at the start. */
function pickAgent(profiles: ProfileSet['profiles'], text: string): { agent: string; task: string } | undefined {
  const [first = '', ...rest] = text.split(/\s+/);
  const byId = findAgentId(profiles.keys(), first);
  if (byId) return { agent: byId, task: rest.join(' ') };
  const lower = text.toLowerCase();
  const named = [...profiles.values()]
    .filter((p) => p.displayName && (lower === p.displayName.toLowerCase() || lower.startsWith(`${p.displayName.toLowerCase()} `)))
    .sort((a, b) => b.displayName!.length - a.displayName!.length)[0];
  return named ? { agent: named.name, task: text.slice(named.displayName!.length).trim() } : undefined;
}

/** The thread of this chat's latest answer from us, so a follow-up continues it. */
function threadOf(context: ChatContextShape): string | undefined {
  for (let i = context.history.length - 1; i >= 0; i--) {
    const turn = context.history[i] as { result?: ChatResultShape } | undefined;
    const id = turn?.result?.metadata?.threadId;
    if (typeof id === 'string') return id;
  }
  return undefined;
}

function agentList(set: ProfileSet): string {
  const profiles = [...set.profiles.values()];
  if (profiles.length === 0)
    return 'No agents are defined yet. Add one with **Subagents: New Agent File**, or in the `subagents.agents` setting.';
  const lines = profiles.map(
    (p) => `- **${p.displayName ?? p.name}**${p.displayName ? ` (\`${p.name}\`)` : ''}: ${oneLine(p.description, 160)} — *${p.source}*`,
  );
  return `The supervisor delegates to these agents; \`/run <agent> <task>\` asks one directly.\n\n${lines.join('\n')}`;
}

function available(profiles: ProfileSet['profiles']): string {
  return `Agents: ${[...profiles.keys()].join(', ') || '(none)'}; \`/agents\` lists them.`;
}

function refuse(stream: ChatStreamShape, message: string): ChatResultShape {
  stream.markdown(message);
  return { errorDetails: { message } };
}
