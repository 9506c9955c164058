import { createHash } from 'node:crypto';
import type { AcpAgentSession } from './acpTypes';
import type { TurnHandlers } from './acpTurnHandlers';

/** A kept agent goes after this long without a prompt: a thread not continued by then starts (or loads) anew. */
export const ACP_IDLE_MS = 10 * 60_000;
/** A kept agent ended gets this long to go before its process group is killed. */
const CLOSE_GRACE_MS = 1500;

/** One child thread's agent process, between the runs of that thread. */
export interface KeptAgent {
  agent: AcpAgentSession;
  /** The handlers it was started with; each run of the thread binds its own to them. */
  handlers: TurnHandlers;
  /** What it was started from (declarationKey): a changed declaration is not served by the old process. */
  key: string;
}

/**
 * The live external agents of an engine, one per child thread (issue 44): a `continue` of the thread
 * (delegate_task's continueThreadId) sends its next prompt to the same process and session. A kept
 * agent ends when it has been idle for `idleMs`, when its thread's run ends it (a stop, a failure),
 * and with the engine (`closeAll`: the window closing, the CLI's exit). Kept processes run in
 * their own process groups, so none outlives `closeAll` (and none is kept once it has run).
 */
export class AcpSessions {
  private readonly kept = new Map<string, { kept: KeptAgent; timer: NodeJS.Timeout }>();
  private closed = false;

  constructor(private readonly idleMs = ACP_IDLE_MS) {}

  /** The thread's kept agent, taken out (its run owns it now), when it lives and has the same declaration; else it is ended. */
  async take(threadId: string, key: string): Promise<KeptAgent | undefined> {
    const entry = this.kept.get(threadId);
    if (!entry) return undefined;
    this.kept.delete(threadId);
    clearTimeout(entry.timer);
    if (entry.kept.key === key && entry.kept.agent.running()) return entry.kept;
    await entry.kept.agent.close(CLOSE_GRACE_MS);
    return undefined;
  }

  /** Keeps the thread's agent for its next run; after closeAll it is ended at once. */
  async keep(threadId: string, kept: KeptAgent): Promise<void> {
    kept.handlers.unbind();
    const earlier = this.kept.get(threadId);
    if (earlier && earlier.kept !== kept) await this.end(threadId);
    if (this.closed || !kept.agent.running()) return kept.agent.close(CLOSE_GRACE_MS);
    const timer = setTimeout(() => void this.end(threadId), this.idleMs);
    // An idle agent never holds the process open: closeAll (the CLI's exit, the window's close) ends it.
    timer.unref();
    this.kept.set(threadId, { kept, timer });
  }

  /** Ends the thread's kept agent, if any (its thread is done). */
  async end(threadId: string): Promise<void> {
    const entry = this.kept.get(threadId);
    if (!entry) return;
    this.kept.delete(threadId);
    clearTimeout(entry.timer);
    await entry.kept.agent.close(CLOSE_GRACE_MS);
  }

  /** Ends every kept agent, and any kept later: the engine is going (the window closes, the CLI exits). */
  async closeAll(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.kept.keys()].map((threadId) => this.end(threadId)));
  }

  /** The threads with a kept agent (for tests and diagnostics). */
  get threads(): string[] {
    return [...this.kept.keys()];
  }
}

/** What an agent was started from: its command, arguments, environment and folder (hashed: the environment may hold keys). */
export function declarationKey(command: string, args: readonly string[], env: Readonly<Record<string, string>>, cwd: string): string {
  const sorted = Object.entries(env).sort(([a], [b]) => a.localeCompare(b));
  return createHash('sha256')
    .update(JSON.stringify([command, args, sorted, cwd]))
    .digest('hex');
}
