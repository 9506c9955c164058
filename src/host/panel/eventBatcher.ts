import type { RunEvent } from '../../shared/events';

export interface EventBatcherOptions {
  /** Receives each batch; called at most once per interval. */
  flush: (events: RunEvent[]) => void;
  /** The shortest time between two flushes: about a frame at 60 Hz by default. */
  intervalMs?: number;
  /** A monotonic clock in ms (default performance.now); tests pass a fake one. */
  now?: () => number;
}

/**
 * Collects events for the webview and hands them over in batches, at most one per interval, so the
 * message rate stays bounded whatever the event rate. Adjacent text deltas of one run are merged:
 * the webview folds them the same way, with a fraction of the messages and the work. A merge never
 * spans another event of the same thread: the merged delta carries the newest seq, and the webview
 * skips events at or below a thread's last seq, so it must cover exactly the seqs it replaces.
 * Knows no vscode, so it is tested and benchmarked in plain node.
 */
export class EventBatcher {
  private pending: RunEvent[] = [];
  /** Index in `pending` of each thread's last event, while that event is a text delta. */
  private openDelta = new Map<string, number>();
  /** Indexes in `pending` that hold this batcher's own merged copies (safe to grow in place). */
  private copies = new Set<number>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private lastFlush = 0;
  private readonly intervalMs: number;
  private readonly now: () => number;

  constructor(private readonly options: EventBatcherOptions) {
    // 17 ms: a little over a frame at 60 Hz, so never more than 60 messages a second.
    this.intervalMs = options.intervalMs ?? 17;
    this.now = options.now ?? (() => performance.now());
  }

  push(event: RunEvent): void {
    if (event.kind === 'text.delta') {
      const at = this.openDelta.get(event.threadId);
      const open = at === undefined ? undefined : this.pending[at];
      if (open?.kind === 'text.delta' && open.runId === event.runId) {
        // Keep the newest seq and ts: the merged delta stands for everything up to this one. The
        // first merge copies (the event is shared with the store and other listeners); later merges
        // grow that copy in place, so a burst of deltas costs one allocation, not one each.
        const merged = this.copies.has(at!) ? open : { ...open };
        merged.text += event.text;
        merged.seq = event.seq;
        merged.ts = event.ts;
        this.pending[at!] = merged;
        this.copies.add(at!);
      } else {
        this.openDelta.set(event.threadId, this.pending.length);
        this.pending.push(event);
      }
    } else {
      this.openDelta.delete(event.threadId);
      this.pending.push(event);
    }
    this.schedule();
  }

  /** Hands over everything pending now (e.g. before the state is replaced). */
  flushNow(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    this.openDelta = new Map();
    this.copies = new Set();
    this.lastFlush = this.now();
    this.options.flush(batch);
  }

  /** Drops everything pending (e.g. when the webview switches to another thread). */
  clear(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.pending = [];
    this.openDelta = new Map();
    this.copies = new Set();
  }

  dispose(): void {
    this.clear();
  }

  private schedule(): void {
    if (this.timer) return;
    // Node may fire a timer up to a millisecond early: round the wait up and add that millisecond.
    const wait = Math.max(0, Math.ceil(this.lastFlush + this.intervalMs - this.now()) + 1);
    this.timer = setTimeout(() => this.flushNow(), wait);
  }
}
