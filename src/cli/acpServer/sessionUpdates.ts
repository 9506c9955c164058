import type { PlanEntry, SessionUpdate, ToolCallContent } from '@agentclientprotocol/sdk';
import type { RunEvent } from '../../shared/events';
import { TODO_TOOL, todoItemsOf, type TodoStatus } from '../../shared/todoList';
import { toolCallView } from './toolCallView';

/** The most of a tool's result (or a subagent's answer) a tool_call_update carries: the client shows it, the model has it whole. */
const MAX_RESULT_CHARS = 4000;

const PLAN_STATUS: Record<TodoStatus, PlanEntry['status']> = { pending: 'pending', in_progress: 'in_progress', done: 'completed' };

function resultText(output: unknown): string {
  const text = typeof output === 'string' ? output : (JSON.stringify(output) ?? '');
  return text.length > MAX_RESULT_CHARS
    ? `${text.slice(0, MAX_RESULT_CHARS)}\n… (${text.length - MAX_RESULT_CHARS} more characters)`
    : text;
}

function textContent(text: string): ToolCallContent[] {
  return text ? [{ type: 'content', content: { type: 'text', text } }] : [];
}

/**
 * One session's RunEvents as ACP session/update payloads. ACP has no tree, so ours is flattened:
 * - the top run's text is `agent_message_chunk`, its reasoning `agent_thought_chunk`, its
 *   todo_write the session's `plan`;
 * - every tool call of every run is a `tool_call` (then a `tool_call_update` with its result),
 *   a subagent's titled with its agent path ("worker › Read src/a.ts");
 * - each subagent run is itself a `tool_call` of kind "think" titled "agent: task", completed
 *   with its answer (or failed with its error), so the client sees who works on what.
 * Ids are made unique across the tree (`runId/toolCallId`). Other events (usage, config, hooks,
 * file changes) have no ACP counterpart here: the prompt's answer carries the tokens.
 */
export class SessionUpdates {
  /** Agent path of each run seen, for titles; the top run's is empty. */
  private readonly agents = new Map<string, string>();
  private topRunId: string | undefined;
  /** todo_write calls of the top run, shown as the plan and not as tool calls. */
  private readonly planCalls = new Set<string>();

  constructor(private readonly root: string) {}

  /** The top run's id, once its run.started has been seen. */
  get topRun(): string | undefined {
    return this.topRunId;
  }

  updatesOf(event: RunEvent): SessionUpdate[] {
    switch (event.kind) {
      case 'run.started': {
        if (event.parentRunId === null) {
          this.topRunId = event.runId;
          this.agents.set(event.runId, '');
          return [];
        }
        // The path under the top run's agent: "explore", "explore › helper".
        const path = event.agentPath.slice(1).join(' › ') || event.agent;
        this.agents.set(event.runId, path);
        return [
          {
            sessionUpdate: 'tool_call',
            toolCallId: `run/${event.runId}`,
            title: `${path}: ${event.task.split('\n')[0]!.slice(0, 100)}`,
            kind: 'think',
            status: 'in_progress',
            rawInput: { agent: event.agent, task: event.task, model: event.model },
          },
        ];
      }
      case 'text.delta':
        return event.runId === this.topRunId && event.text
          ? [{ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: event.text } }]
          : [];
      case 'run.reasoning':
        return event.runId === this.topRunId && event.text
          ? [{ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: event.text } }]
          : [];
      case 'tool.started': {
        const id = `${event.runId}/${event.toolCallId}`;
        if (event.tool === TODO_TOOL && event.runId === this.topRunId) {
          const items = todoItemsOf(event.input);
          if (items) {
            this.planCalls.add(id);
            return [
              {
                sessionUpdate: 'plan',
                entries: items.map((item) => ({ content: item.text, priority: 'medium', status: PLAN_STATUS[item.status] })),
              },
            ];
          }
        }
        const by = this.agents.get(event.runId) || undefined;
        const view = toolCallView(event.tool, event.input, this.root, by);
        return [{ sessionUpdate: 'tool_call', toolCallId: id, ...view, status: 'in_progress', rawInput: event.input }];
      }
      case 'tool.finished': {
        const id = `${event.runId}/${event.toolCallId}`;
        if (this.planCalls.delete(id)) return [];
        return [
          {
            sessionUpdate: 'tool_call_update',
            toolCallId: id,
            status: event.isError ? 'failed' : 'completed',
            content: textContent(resultText(event.output)),
            rawOutput: event.output,
          },
        ];
      }
      case 'run.finished': {
        if (event.runId === this.topRunId || !this.agents.has(event.runId)) return [];
        const text = event.status === 'ok' ? event.output : `${event.status}${event.error ? `: ${event.error}` : ''}\n${event.output}`;
        return [
          {
            sessionUpdate: 'tool_call_update',
            toolCallId: `run/${event.runId}`,
            status: event.status === 'ok' ? 'completed' : 'failed',
            content: textContent(resultText(text.trim())),
          },
        ];
      }
      default:
        return [];
    }
  }
}
