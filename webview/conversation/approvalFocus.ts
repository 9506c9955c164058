/**
 * Where the keyboard goes when an approval is answered (its buttons are about to be disabled and
 * replaced by the outcome, which would leave focus on `<body>`): the next approval still waiting,
 * after this one in the page or else the first, otherwise `fallback` (the prompt box). The panel
 * does not scroll for it: the user stays where they were.
 */
export function focusAfterApproval(from: HTMLElement, fallback: () => void): void {
  const waiting = [...document.querySelectorAll<HTMLElement>('.approval .approve')].filter(
    (b) => !from.contains(b) && !b.hasAttribute('disabled') && b.getAttribute('aria-disabled') !== 'true',
  );
  const after = waiting.find((b) => from.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING);
  const next = after ?? waiting[0];
  if (next) next.focus({ preventScroll: true });
  else fallback();
}
