/** Who changed a file, as the conflict guard names them. */
export interface ChangeAuthor {
  runId: string;
  agent: string;
  /** The tool that made the change: write_file, edit_file, run_command. */
  tool: string;
}

export interface JournalEntry extends ChangeAuthor {
  /** When, on the journal's own clock (tick()). */
  tick: number;
  afterHash: string | null;
}

interface CommandSpan {
  runId: string;
  start: number;
  end: number | undefined;
}

/** Entries kept per file: the guard only needs the recent ones. */
const PER_FILE = 16;

/**
 * What every run of one engine changed, by absolute path, in the order it happened: the conflict
 * guard asks it who changed a file since a run read it, and the command watcher asks it which
 * commands ran at the same time (their changes have no certain author) and which tool writes
 * happened during a command (those are not the command's). The clock is a counter, not the time,
 * so order is exact whatever the system clock does.
 */
export class ChangeJournal {
  private clock = 0;
  private readonly files = new Map<string, JournalEntry[]>();
  private readonly commands = new Set<CommandSpan>();

  tick(): number {
    return ++this.clock;
  }

  note(abs: string, entry: Omit<JournalEntry, 'tick'>): JournalEntry {
    const full = { ...entry, tick: this.tick() };
    const list = this.files.get(abs) ?? [];
    list.push(full);
    if (list.length > PER_FILE) list.shift();
    this.files.set(abs, list);
    return full;
  }

  /** The latest change to `abs` after `since`, made by another run than `exceptRun`. */
  changedSince(abs: string, since: number, exceptRun?: string): JournalEntry | undefined {
    const list = this.files.get(abs);
    if (!list) return undefined;
    for (let i = list.length - 1; i >= 0 && list[i]!.tick > since; i--) if (list[i]!.runId !== exceptRun) return list[i];
    return undefined;
  }

  /** The latest change to `abs` after `since`, by anyone. */
  latest(abs: string, since = 0): JournalEntry | undefined {
    const last = this.files.get(abs)?.at(-1);
    return last && last.tick > since ? last : undefined;
  }

  /** Tool writes (not commands) to any file after `since` by another run: during a command, these are not its doing. */
  writesSince(since: number, exceptRun: string): Map<string, JournalEntry> {
    const out = new Map<string, JournalEntry>();
    for (const [abs, list] of this.files) {
      const last = list.at(-1);
      if (last && last.tick > since && last.runId !== exceptRun && last.tool !== 'run_command') out.set(abs, last);
    }
    return out;
  }

  /** A command starts: returns its end, which says whether another command ran while it did. */
  commandStarted(runId: string): () => { overlapped: boolean } {
    const span: CommandSpan = { runId, start: this.tick(), end: undefined };
    this.commands.add(span);
    return () => {
      span.end = this.tick();
      let overlapped = false;
      for (const other of this.commands) {
        if (other === span) continue;
        if (other.start < span.end && (other.end === undefined || other.end > span.start)) overlapped = true;
      }
      // Spans that ended before every running one started can overlap nothing any more.
      const oldestRunning = Math.min(...[...this.commands].filter((c) => c.end === undefined).map((c) => c.start));
      for (const c of this.commands) if (c.end !== undefined && c.end < oldestRunning) this.commands.delete(c);
      return { overlapped };
    };
  }
}
