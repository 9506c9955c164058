/**
 * A chip's remove button was pressed and the list is about to be redrawn without it: where should
 * the keyboard go? On the next chip's remove button (else the previous one's), else `fallback`
 * (the prompt). Call before redrawing; call what it returns after.
 */
export function focusAfterRemoving(chip: Element, list: Element, idAttr: string, removeSelector: string, fallback: () => void): () => void {
  const nextId = (chip.nextElementSibling ?? chip.previousElementSibling)?.getAttribute(idAttr);
  return () => {
    const next = nextId ? list.querySelector<HTMLElement>(`[${idAttr}="${CSS.escape(nextId)}"] ${removeSelector}`) : null;
    if (next) next.focus();
    else fallback();
  };
}
