/**
 * Work that may wait a frame (markdown of the runs in the tree), done within a time budget per
 * frame, so a batch of events applies in a few milliseconds however many runs stream at once.
 * A later job for the same key replaces the earlier one: only the latest text is worth rendering.
 */
export class RenderQueue {
  private readonly jobs = new Map<object, () => void>();
  private frame = 0;

  constructor(private readonly budgetMs: number) {}

  schedule(key: object, job: () => void): void {
    this.jobs.set(key, job);
    this.later();
  }

  /** Runs queued jobs, oldest first, until the budget is spent; the rest wait for the next frame. */
  drain(): void {
    const end = performance.now() + this.budgetMs;
    for (const [key, job] of this.jobs) {
      this.jobs.delete(key);
      job();
      if (performance.now() >= end) break;
    }
    if (this.jobs.size) this.later();
  }

  clear(): void {
    this.jobs.clear();
  }

  private later(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.drain();
    });
  }
}
