import * as vscode from 'vscode';

/**
 * The view's own progress bar (a spinner on its icon while the view is hidden) for as long as the
 * open thread works, except while an approval waits: the run is waiting for the user then, and the
 * view's badge says so, which the spinner would cover.
 */
export class ViewProgress implements vscode.Disposable {
  private busy = false;
  private waiting = false;
  private done: (() => void) | undefined;

  constructor(private readonly viewId: string) {}

  setBusy(busy: boolean): void {
    this.busy = busy;
    this.update();
  }

  setWaiting(waiting: boolean): void {
    this.waiting = waiting;
    this.update();
  }

  dispose(): void {
    this.done?.();
    this.done = undefined;
  }

  private update(): void {
    const show = this.busy && !this.waiting;
    if (show === (this.done !== undefined)) return;
    if (!show) return this.dispose();
    void vscode.window.withProgress({ location: { viewId: this.viewId } }, () => new Promise<void>((resolve) => (this.done = resolve)));
  }
}
