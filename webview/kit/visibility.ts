/**
 * Tells elements when they come near the viewport. Building a thousand runs' rows at once would
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
