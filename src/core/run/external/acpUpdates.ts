import type { RunEventBody } from '../../runEvents';
import type { SessionUpdate } from './acpTypes';

/** The names an ACP agent's own tool calls carry on the node: `acp:<kind>` (acp:edit, acp:execute…), so they read apart from ours. */
export const ACP_TOOL_PREFIX = 'acp:';
/** One thought block is kept up to this long; the rest is cut (the node shows it folded, it is never a result). */
const MAX_THOUGHT_CHARS = 20_000;

/** What one agent's stream has said so far: its text, its open tool calls, its tokens. */
export class AcpUpdateMapper {
  /** Everything said in agent_message_chunk, in order: the child's result is its last message. */
  private messages: string[] = [''];
  private readonly open = new Map<string, { tool: string; title: string }>();
  private lastWasText = false;
  /** The thought being said, sent as one run.reasoning when something else comes (so a secret split over chunks is redacted whole). */
  private thought = '';
  contextTokens = 0;

  constructor(private readonly emit: (body: RunEventBody) => void) {}

  /** The text of the agent's last message (after its last tool call), or all of it when it made none. */
  get result(): string {
    return (
      [...this.messages]
        .reverse()
        .find((m) => m.trim() !== '')
        ?.trim() ?? ''
    );
  }

  get output(): string {
    return this.messages.filter(Boolean).join('\n\n');
  }

  /** Sends the thought said so far, if any (also when the turn ends: runExternal.ts). */
  endThought(): void {
    if (!this.thought.trim()) return;
    const text = this.thought.length >= MAX_THOUGHT_CHARS ? `${this.thought.slice(0, MAX_THOUGHT_CHARS)} …` : this.thought;
    this.thought = '';
    this.emit({ kind: 'run.reasoning', text: text.trim() });
  }

  /** Tool calls the agent started and never finished: closed as failed when its turn ends. */
  closeOpen(reason: string): void {
    this.endThought();
    for (const [toolCallId, { tool }] of this.open)
      this.emit({ kind: 'tool.finished', toolCallId, tool, output: { error: reason }, isError: true });
    this.open.clear();
  }

  apply(update: SessionUpdate): void {
    if (update.sessionUpdate === 'agent_thought_chunk') {
      if (update.content.type === 'text' && this.thought.length < MAX_THOUGHT_CHARS) this.thought += update.content.text;
      return;
    }
    this.endThought();
    switch (update.sessionUpdate) {
      case 'agent_message_chunk': {
        if (update.content.type !== 'text') return;
        if (!this.lastWasText) this.messages.push('');
        this.messages[this.messages.length - 1] += update.content.text;
        this.lastWasText = true;
        this.emit({ kind: 'text.delta', text: update.content.text });
        return;
      }
      case 'tool_call': {
        this.lastWasText = false;
        const tool = `${ACP_TOOL_PREFIX}${update.kind ?? 'other'}`;
        const id = this.idOf(update.toolCallId);
        if (this.open.has(id)) return;
        this.open.set(id, { tool, title: update.title });
        this.emit({
          kind: 'tool.started',
          toolCallId: id,
          tool,
          input: {
            title: update.title,
            ...(update.locations?.length ? { locations: update.locations } : {}),
            ...(update.rawInput === undefined ? {} : { rawInput: update.rawInput }),
            // Diffs it shows before it edits (the panel draws them as diffs: src/shared/acpToolContent.ts).
            ...(update.content?.length ? { content: update.content } : {}),
          },
        });
        if (update.status === 'completed' || update.status === 'failed') this.finish(id, update.status, update.content, update.rawOutput);
        return;
      }
      case 'tool_call_update': {
        const id = this.idOf(update.toolCallId);
        if (update.status === 'completed' || update.status === 'failed')
          this.finish(id, update.status, update.content ?? undefined, update.rawOutput);
        return;
      }
      case 'plan': {
        const status = { pending: 'pending', in_progress: 'in_progress', completed: 'done' } as const;
        const items = update.entries.slice(0, 50).map((e) => ({ text: e.content.slice(0, 500) || '…', status: status[e.status] }));
        const toolCallId = `acp_plan_${Date.now().toString(36)}`;
        this.emit({ kind: 'tool.started', toolCallId, tool: 'todo_write', input: { items } });
        this.emit({ kind: 'tool.finished', toolCallId, tool: 'todo_write', output: { items: items.length }, isError: false });
        return;
      }
      case 'usage_update':
        // The agent's context window in use (not tokens billed): shown as its usage; the budget counts it at the end.
        this.contextTokens = update.used;
        this.emit({ kind: 'run.usage', usage: { inputTokens: update.used, outputTokens: 0, totalTokens: update.used } });
        return;
      default:
        // Modes, commands, session info: nothing on the node.
        return;
    }
  }

  private finish(id: string, status: 'completed' | 'failed', content: unknown, rawOutput: unknown): void {
    const open = this.open.get(id);
    if (!open) return;
    this.open.delete(id);
    const output = { ...(content === undefined ? {} : { content }), ...(rawOutput === undefined ? {} : { rawOutput }) };
    this.emit({ kind: 'tool.finished', toolCallId: id, tool: open.tool, output, isError: status === 'failed' });
  }

  /** An agent's ids are its own: prefixed so they can never collide with a call of ours on the same node. */
  private idOf(agentId: string): string {
    return `acp_${agentId}`;
  }
}
