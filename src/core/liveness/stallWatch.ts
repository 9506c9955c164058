import type { Schedule } from '../ports';

/**
 * Notices a run that has gone quiet while one of its model calls is open: no event of the run and
 * no part of the call's stream for `ms`. It says so once per silence (the caller emits a warning
 * with code `stall`, and the node shows "stalled?"); the next sign of life starts the watch again.
 * A run waiting for a tool, an approval or its children is not watched: only model calls stall.
 */
export class StallWatch {
  private open = 0;
  private cancel: (() => void) | undefined;

  constructor(
    private readonly ms: number,
    private readonly schedule: Schedule,
    private readonly onStall: (silentMs: number) => void,
  ) {}

  /** A model call opened; call the result when it has ended (however it ended). */
  callOpened(): () => void {
    this.open++;
    this.arm();
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
    if (this.open > 0) this.arm();
  }

  /** The run has ended: nothing more is watched. */
  stop(): void {
    this.open = 0;
    this.disarm();
  }

  private arm(): void {
    this.disarm();
    this.cancel = this.schedule(this.ms, () => {
      this.cancel = undefined;
      // Said once; only a sign of life (touch) arms the watch again.
      if (this.open > 0) this.onStall(this.ms);
    });
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
