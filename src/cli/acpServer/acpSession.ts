import type { ContentBlock, PromptResponse, SessionNotification, StopReason } from '@agentclientprotocol/sdk';
import { EngineRequestError } from '../../core/engine/engine';
import type { RunEventOf } from '../../shared/events';
import type { CliEngine } from '../cliEngine';
import { AcpRefusal } from './acpRefusal';
import { SessionUpdates } from './sessionUpdates';

/** How a finished top run ends the prompt turn in ACP's words. */
const STOP_REASONS: Partial<Record<RunEventOf<'run.finished'>['status'], StopReason>> = {
  cancelled: 'cancelled',
  max_steps: 'max_turn_requests',
  budget: 'max_tokens',
};

/** A prompt's content as the text our engine takes: text as is, a linked file or resource by its URI. */
export function promptText(blocks: readonly ContentBlock[]): string {
  const parts: string[] = [];
  for (const block of blocks) {
    if (block.type === 'text') parts.push(block.text);
    else if (block.type === 'resource_link') parts.push(`[${block.name}](${block.uri})`);
    else if (block.type === 'resource' && 'text' in block.resource) parts.push(`${block.resource.uri}:\n${block.resource.text}`);
    else throw new AcpRefusal(-32602, `This agent takes text, file links and text resources in a prompt, not "${block.type}" content.`);
  }
  return parts.join('\n').trim();
}

/**
 * One ACP session: one thread of our engine, in the workspace the client named; the session's id
 * is the thread's (so session/load finds it again, and `subagents threads show ID` shows it). Its
 * engine serves only this session, so every RunEvent it emits is this session's (the top run and
 * the subagents under it) and goes to the client as session/update, in order.
 */
export class AcpSession {
  private readonly updates: SessionUpdates;
  /** Notifications go out one after another; a prompt's answer waits for the last of them. */
  private sending: Promise<void> = Promise.resolve();
  private working = false;

  constructor(
    readonly id: string,
    readonly cwd: string,
    private readonly cli: CliEngine,
    private readonly notify: (notification: SessionNotification) => Promise<void>,
    /** The thread is stored already (session/load); a new session's thread is made by its first prompt. */
    private threadExists: boolean,
  ) {
    this.updates = new SessionUpdates(cwd);
    cli.engine.onEvent((event) => {
      for (const update of this.updates.updatesOf(event)) this.send(update);
    });
  }

  /** Runs one prompt turn: the supervisor (or `agent`) on the thread, until the thread is quiet. */
  async prompt(blocks: readonly ContentBlock[], agent: string | undefined): Promise<PromptResponse> {
    const text = promptText(blocks);
    if (!text) throw new AcpRefusal(-32602, 'The prompt is empty: say what you want done.');
    if (this.working)
      throw new AcpRefusal(-32600, 'A prompt is already running in this session: wait for it, or cancel it (session/cancel).');
    this.working = true;
    try {
      let sent;
      try {
        sent = await this.cli.engine.send({
          prompt: text,
          ...(this.threadExists ? { threadId: this.id } : { newThreadId: this.id }),
          ...(agent === undefined ? {} : { agent }),
        });
      } catch (error) {
        if (error instanceof EngineRequestError) throw new AcpRefusal(-32602, error.message);
        throw error;
      }
      this.threadExists = true;
      const finished = await sent.done;
      await this.cli.engine.whenQuiet(sent.threadId);
      // A failed run says why where the user reads: its error is the turn's last words.
      if (finished.status !== 'ok' && finished.status !== 'cancelled' && finished.error) {
        this.send({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `\n\n${finished.status}: ${finished.error}` } });
      }
      await this.sending;
      const usage = finished.totalUsage ?? finished.usage;
      return {
        stopReason: STOP_REASONS[finished.status] ?? 'end_turn',
        // ACP v1 has no place for a turn's tokens: they ride in _meta, with our thread and run ids.
        _meta: { subagents: { threadId: sent.threadId, runId: sent.runId, status: finished.status, usage } },
      };
    } finally {
      this.working = false;
    }
  }

  /** session/cancel: every run of the thread stops (a request still starting too); the prompt then answers "cancelled". */
  cancel(): void {
    this.cli.engine.cancel(this.id);
  }

  /**
   * session/load: the stored conversation sent again as session/update, as it happened: each
   * prompt as the user's message, then what the runs did (the same mapping as live).
   */
  async replay(): Promise<void> {
    const family = await this.cli.store.getFamily(this.id);
    for (const event of family?.events ?? []) {
      if (event.kind === 'run.started' && event.parentRunId === null && event.threadId === this.id)
        this.send({ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: event.task } });
      for (const update of this.updates.updatesOf(event)) this.send(update);
    }
    await this.sending;
  }

  private send(update: SessionNotification['update']): void {
    this.sending = this.sending.then(() => this.notify({ sessionId: this.id, update }).catch(() => {}));
  }

  /** Stops what works, waits for its end and closes the engine (the connection closed). */
  async close(): Promise<void> {
    this.cli.engine.cancelAll('closing');
    if (this.threadExists) await this.cli.engine.whenQuiet(this.id).catch(() => {});
    await this.cli.store.closeAll();
    await this.cli.close();
  }
}
