import type { Clock, Schedule } from '../../../src/core/ports';

/**
 * A Schedule whose time moves only when the test says: `advance(ms)` runs, in order, every
 * callback that falls due. For timeouts and watches that must be tested without waiting.
 */
export class ManualSchedule {
  private time = 0;
  private nextId = 0;
  private readonly timers = new Map<number, { at: number; fn: () => void }>();

  readonly schedule: Schedule = (ms, fn) => {
    const id = this.nextId++;
    this.timers.set(id, { at: this.time + ms, fn });
    return () => this.timers.delete(id);
  };

  get now(): number {
    return this.time;
  }

  /** A clock that reads this schedule's time: for code that notes times and checks them when a timer fires. */
  readonly clock: Clock = { now: () => this.time };

  /** Timers waiting to fire. */
  get pending(): number {
    return this.timers.size;
  }

  /** Moves time on by `ms`, firing what falls due on the way (a callback may schedule more). */
  advance(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      let due: [number, { at: number; fn: () => void }] | undefined;
      for (const entry of this.timers) if (entry[1].at <= end && (!due || entry[1].at < due[1].at)) due = entry;
      if (!due) break;
      this.timers.delete(due[0]);
      this.time = due[1].at;
      due[1].fn();
    }
    this.time = end;
  }
}
