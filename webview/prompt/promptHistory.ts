import type { UiState } from '../uiState';

/**
 * Up-arrow recall of the prompts sent from this panel, newest first, as a terminal does: Up in an
 * empty box (or on a recalled prompt, at its start) goes back one, Down goes forward and past the
 * newest clears the box. Sending or typing something else ends the recall.
 */
export class PromptHistory {
  /** Index into the history of the prompt shown; -1 when none is. */
  private index = -1;

  constructor(private readonly ui: UiState) {}

  get recalling(): boolean {
    return this.index >= 0;
  }

  /** The recalled prompt shown, if any. */
  get current(): string | undefined {
    return this.index >= 0 ? this.ui.history[this.index] : undefined;
  }

  older(): string | undefined {
    const all = this.ui.history;
    if (all.length === 0) return undefined;
    this.index = this.index < 0 ? all.length - 1 : Math.max(0, this.index - 1);
    return all[this.index];
  }

  newer(): string | undefined {
    if (this.index < 0) return undefined;
    this.index++;
    if (this.index >= this.ui.history.length) {
      this.index = -1;
      return undefined;
    }
    return this.ui.history[this.index];
  }

  reset(): void {
    this.index = -1;
  }
}
