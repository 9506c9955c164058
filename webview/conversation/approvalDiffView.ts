import type { ChangePreview } from '../../src/shared/events';
import { h } from '../kit/dom';
import { button } from '../kit/toolkit';

const SIGN = { add: '+', del: '−', same: ' ', hunk: '' } as const;

/**
 * An edit's diff inside its approval: "+a −b" with "Open diff" (VS Code's diff editor, the whole
 * change) and the first lines of the diff. The lines are the model's text: they enter the page
 * only as text nodes, never as HTML.
 */
export function approvalDiffView(preview: ChangePreview, openDiff: () => void): HTMLElement {
  const open = button({ label: 'Open diff', icon: 'diff', appearance: 'secondary', className: 'approval-open-diff' });
  open.addEventListener('click', openDiff);
  const counts = h(
    'span',
    { class: 'approval-diff-counts', 'aria-label': `${preview.added} lines added, ${preview.removed} removed` },
    h('span', { class: 'diff-add' }, `+${preview.added}`),
    ' ',
    h('span', { class: 'diff-del' }, `−${preview.removed}`),
  );
  const head = h(
    'div',
    { class: 'approval-diff-head' },
    h('span', { class: 'approval-diff-path' }, `${preview.created ? 'New file ' : ''}${preview.path}`),
    counts,
    open,
  );
  const el = h('div', { class: 'approval-diff', role: 'group', 'aria-label': `Proposed change to ${preview.path}` }, head);
  if (preview.hidden) {
    el.append(h('div', { class: 'approval-diff-note' }, `No lines shown: ${preview.hidden}. Open the diff to see the change.`));
    return el;
  }
  const pre = h('pre', { class: 'diff approval-diff-lines' });
  for (const line of preview.lines) {
    const text = line.kind === 'hunk' ? line.text : `${SIGN[line.kind]} ${line.text}`;
    pre.append(h('span', { class: `diff-line diff-${line.kind}` }, `${text}\n`));
  }
  el.append(pre);
  if (preview.omitted)
    el.append(
      h(
        'div',
        { class: 'approval-diff-note' },
        `${preview.omitted} more line${preview.omitted === 1 ? '' : 's'}: open the diff to see them all.`,
      ),
    );
  return el;
}
