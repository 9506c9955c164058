/**
 * File times come from the kernel's coarse clock, which can lag the real time by a tick: a file
 * written just after the run started may carry a time just before it. Erring that way costs a read.
 */
const COARSE_CLOCK_MS = 20;

/**
 * The time after which a file's modification means it changed since a run started at `now`.
 * `settledAt`: when the run's files were last written by its own set-up (a worktree's checkout),
 * which counts as the state the run found, not a change since.
 */
export function changedAfterFor(now: number, settledAt?: number): number {
  return Math.max(now - COARSE_CLOCK_MS, settledAt ?? -Infinity);
}

/** What one run last saw of each file: by reading it or by writing it itself. */
export interface SeenEntry {
  /** The content hash it saw (null: the file was missing). */
  hash: string | null;
  /** On the journal's clock. */
  tick: number;
}

/**
 * One run's memory of the files it knows, for the conflict guard: a write is judged against what
 * the run last read (or wrote), or, for a file it never read, against the time the run started.
 */
export class ReadLedger {
  private readonly seen = new Map<string, SeenEntry>();

  /**
   * @param startTick the journal's clock when the run started
   * @param changedAfter a file last modified on disk after this wall time changed since the run
   *   started (startedAtFor gives it)
   */
  constructor(
    readonly startTick: number,
    readonly changedAfter: number,
  ) {}

  get(abs: string): SeenEntry | undefined {
    return this.seen.get(abs);
  }

  saw(abs: string, hash: string | null, tick: number): void {
    this.seen.set(abs, { hash, tick });
  }
}
