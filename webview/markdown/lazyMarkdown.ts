import { renderMarkdown } from './markdown';
import type { RenderQueue } from '../kit/renderQueue';
import type { VisibilityWatcher } from '../kit/visibility';

/**
 * A markdown block in the tree (a run's output): rendered only while near the viewport, only when
 * its text changed since, and through the frame-budgeted render queue.
 */
export class LazyMarkdown {
  private text = '';
  private rendered = '';
  private visible = false;

  constructor(
    readonly el: HTMLElement,
    watcher: VisibilityWatcher,
    private readonly queue: RenderQueue,
  ) {
    watcher.watch(el, (visible) => {
      this.visible = visible;
      if (visible) this.request();
    });
  }

  set(text: string): void {
    this.text = text;
    if (this.visible) this.request();
  }

  private request(): void {
    if (this.rendered !== this.text) this.queue.schedule(this, () => this.flush());
  }

  private flush(): void {
    if (this.rendered === this.text) return;
    this.rendered = this.text;
    renderMarkdown(this.el, this.text);
  }
}
