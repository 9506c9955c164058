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
   * @param startedAt the wall time it started (a file modified on disk after it changed since)
   */
  constructor(
    readonly startTick: number,
    readonly startedAt: number,
  ) {}

  get(abs: string): SeenEntry | undefined {
    return this.seen.get(abs);
  }

  saw(abs: string, hash: string | null, tick: number): void {
    this.seen.set(abs, { hash, tick });
  }
}
