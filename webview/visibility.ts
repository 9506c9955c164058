/**
 * Tells elements when they come near the viewport. Rendering markdown for 1,000 runs at once would
 * blow the render budget, and streamed text of a run nobody can see need not be rendered at all:
 * such work waits until the element is close to being shown.
 */
export class VisibilityWatcher {
  private callbacks = new WeakMap<Element, (visible: boolean) => void>();
  private readonly observer: IntersectionObserver;

  /** `root` is the scrolling element: a margin around the viewport would be clipped by it. */
  constructor(root: Element) {
    this.observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) this.callbacks.get(entry.target)?.(entry.isIntersecting);
      },
      // A generous margin: content is ready before it scrolls in.
      { root, rootMargin: '800px 0px' },
    );
  }

  watch(el: Element, onChange: (visible: boolean) => void): void {
    this.callbacks.set(el, onChange);
    this.observer.observe(el);
  }

  /** Forgets every element (the tree they belong to is being replaced). */
  clear(): void {
    this.observer.disconnect();
    this.callbacks = new WeakMap();
  }

  unwatch(el: Element): void {
    if (!this.callbacks.delete(el)) return;
    this.observer.unobserve(el);
  }
}

/** A markdown block that renders only while (nearly) visible, and only when its text changed. */
export class LazyMarkdown {
  private text = '';
  private rendered = '';
  private visible = false;

  constructor(
    readonly el: HTMLElement,
    watcher: VisibilityWatcher,
    private readonly render: (el: HTMLElement, text: string) => void,
  ) {
    watcher.watch(el, (visible) => {
      this.visible = visible;
      if (visible) this.flush();
    });
  }

  set(text: string): void {
    this.text = text;
    if (this.visible) this.flush();
  }

  private flush(): void {
    if (this.rendered === this.text) return;
    this.rendered = this.text;
    this.render(this.el, this.text);
  }
}
