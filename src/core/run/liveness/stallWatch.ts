import type { Clock, Schedule } from '../../ports';

/**
 * Notices a run that has gone quiet while one of its model calls is open: no event of the run and
 * no part of the call's stream for `ms`. It says so once per silence (the caller emits a warning
 * with code `stall`, and the node shows "stalled?"); the next sign of life starts the watch again.
 * A run waiting for a tool, an approval or its children is not watched: only model calls stall.
 *
 * A sign of life only notes the time (a run streams thousands of parts); the one timer, set when a
 * call opens, looks at that time when it fires and sets itself again for what is left.
 */
export class StallWatch {
  private open = 0;
  private cancel: (() => void) | undefined;
  private lastSign = 0;
  private warned = false;

  constructor(
    private readonly ms: number,
    private readonly clock: Clock,
    private readonly schedule: Schedule,
    private readonly onStall: (silentMs: number) => void,
  ) {}

  /** A model call opened; call the result when it has ended (however it ended). */
  callOpened(): () => void {
    this.open++;
    this.touch();
    this.cancel ??= this.schedule(this.ms, () => this.check());
    let closed = false;
    return () => {
      if (closed) return;
      closed = true;
      this.open--;
      if (this.open === 0) this.disarm();
    };
  }

  /** Something happened (an event, a part of the stream): the silence starts again. */
  touch(): void {
    this.lastSign = this.clock.now();
    this.warned = false;
  }

  /** The run has ended: nothing more is watched. */
  stop(): void {
    this.open = 0;
    this.disarm();
  }

  private check(): void {
    this.cancel = undefined;
    if (this.open === 0) return;
    const silent = this.clock.now() - this.lastSign;
    if (silent >= this.ms && !this.warned) {
      // Said once; a sign of life (touch) lets it be said again after the next silence.
      this.warned = true;
      this.onStall(silent);
    }
    const next = this.warned ? this.ms : this.ms - silent;
    this.cancel = this.schedule(Math.max(1, next), () => this.check());
  }

  private disarm(): void {
    this.cancel?.();
    this.cancel = undefined;
  }
}

/** The warning a stalled run gets. */
export function stallText(silentMs: number, idleTimeoutMs: number): string {
  return (
    `Stalled? The model has sent nothing for ${seconds(silentMs)} s while its call is open. The run keeps waiting; ` +
    `after ${seconds(idleTimeoutMs)} s of silence the call is aborted and tried once more (subagents.stallWarningMs, subagents.modelIdleTimeoutMs). Stop the run if it should not wait.`
  );
}

export const seconds = (ms: number): string => String(Math.round(ms / 100) / 10);
