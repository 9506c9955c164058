import type { ToolCallNode } from '../../src/shared/runTree';
import { foldedItemCount, foldText, showAllLabel } from '../../src/shared/outputFold';
import { toolDetail, type DetailBlock } from '../../src/shared/toolDetail';
import { summarizeToolCall } from '../../src/shared/toolSummary';
import { codicon, fileLink, h } from '../kit/dom';

/**
 * A tool call opened: the tool's name, its full input, then its output as it reads best (a file's
 * text, a diff, a terminal block, a list with links). Built only when opened, and flowing with
 * the page: no box of its own that scrolls inside the panel's. Output longer than twenty lines is
 * folded behind a "120 lines, show all" button that opens it in place; `unfolded` holds the blocks
 * opened so, so a redraw (more output) keeps them open.
 */
export function toolDetailView(call: ToolCallNode, unfolded: Set<number> = new Set()): HTMLElement {
  const detail = toolDetail(call);
  const el = h('div', { class: 'tool-detail' });
  const title = h('div', { class: 'detail-title' }, h('code', {}, call.tool));
  // The summary's file link is a mouse shortcut in a tree row; here it is in the tab order.
  const file = summarizeToolCall(call).find((p) => typeof p === 'object' && 'file' in p);
  if (file && typeof file === 'object' && 'file' in file)
    title.append(' ', fileLink(file.file.path, file.file.line, `Open ${file.file.path}${file.file.line ? `:${file.file.line}` : ''}`));
  el.append(title);
  if (detail.input.length) {
    const list = h('dl', { class: 'detail-input' });
    for (const f of detail.input) list.append(h('dt', {}, f.name), h('dd', {}, f.value));
    el.append(list);
  }
  detail.output.forEach((block, i) => {
    let drawn = blockView(block, unfolded.has(i), showAll);
    function showAll(): void {
      unfolded.add(i);
      const next = blockView(block, true, showAll);
      drawn.replaceWith(next);
      drawn = next;
      // The button is gone: the focus goes to what it opened (its first link, else its text), not to <body>.
      const opened = next.querySelector<HTMLElement>('[data-unfolded]') ?? next;
      const target = opened.querySelector<HTMLElement>('a') ?? opened;
      if (target.tagName !== 'A') target.tabIndex = -1;
      target.focus();
    }
    el.append(drawn);
  });
  if (call.state === 'running' && detail.output.length === 0) el.append(h('div', { class: 'detail-note' }, 'Running…'));
  else if (call.output === undefined && call.state !== 'running' && detail.output.length === 0)
    el.append(h('div', { class: 'detail-note' }, 'No output.'));
  return el;
}

/** The button that opens a folded block in place: a native button, so Tab reaches it and Enter presses it. */
function showAllButton(label: string, onShowAll: () => void): HTMLButtonElement {
  const b = h('button', { type: 'button', class: 'show-all' }, label);
  b.addEventListener('click', onShowAll);
  return b;
}

/** A pre holding text that may be folded: whole once unfolded (marked, to take the focus). */
function foldedPre(className: string, text: string, keep: 'first' | 'last', unfolded: boolean, onShowAll: () => void): HTMLElement[] {
  const folded = unfolded ? undefined : foldText(text, keep);
  if (!folded) return [h('pre', { class: className, ...(unfolded && foldText(text) ? { 'data-unfolded': true } : {}) }, text)];
  const pre = h('pre', { class: `${className} folded` }, folded.shown);
  const button = showAllButton(showAllLabel(folded.total, 'lines'), onShowAll);
  // A command's last lines are shown: the button stands where the hidden ones would be.
  return keep === 'first' ? [pre, button] : [button, pre];
}

function blockView(block: DetailBlock, unfolded: boolean, onShowAll: () => void): HTMLElement {
  switch (block.kind) {
    case 'text':
      return h(
        'div',
        { class: 'detail-block' },
        h('div', { class: 'detail-title' }, block.title),
        ...foldedPre('detail-text', block.text, 'first', unfolded, onShowAll),
      );
    case 'terminal':
      return h(
        'div',
        { class: 'terminal', role: 'group', 'aria-label': 'Command and its output' },
        h('div', { class: 'terminal-command' }, h('span', { class: 'terminal-prompt', 'aria-hidden': 'true' }, '$ '), block.command),
        ...(block.text ? foldedPre('terminal-output', block.text, 'last', unfolded, onShowAll) : []),
        ...(block.status ? [h('div', { class: 'terminal-status' }, block.status)] : []),
      );
    case 'diff': {
      const pre = h('pre', { class: 'diff', 'aria-label': `Diff: ${block.diff.added} lines added, ${block.diff.removed} removed` });
      for (const line of block.diff.lines) {
        const sign = line.kind === 'add' ? '+' : line.kind === 'del' ? '−' : ' ';
        pre.append(h('span', { class: `diff-line diff-${line.kind}` }, `${sign} ${line.text}\n`));
      }
      if (block.diff.omitted) pre.append(h('span', { class: 'diff-line diff-same' }, `… ${block.diff.omitted} more lines`));
      return block.path ? h('div', { class: 'detail-block' }, h('div', { class: 'detail-title' }, block.path), pre) : pre;
    }
    case 'list': {
      const ul = h('ul', { class: 'detail-list' });
      const shown = unfolded ? block.items.length : foldedItemCount(block.items.length);
      block.items.slice(0, shown).forEach((item, i) => {
        const li = h('li', {}, item.file ? fileLink(item.file.path, item.file.line, item.text) : item.text);
        // Unfolded, the first item that was hidden takes the focus: the reader goes on where the fold was.
        if (unfolded && i === foldedItemCount(block.items.length) && shown > i) li.dataset.unfolded = '';
        ul.append(li);
      });
      const fold = shown < block.items.length ? [showAllButton(showAllLabel(block.items.length, block.title), onShowAll)] : [];
      return h(
        'div',
        { class: 'detail-block' },
        h('div', { class: 'detail-title' }, `${block.title} (${block.items.length})`),
        ul,
        ...fold,
      );
    }
    case 'error':
      return h('div', { class: 'detail-error', role: 'note' }, codicon('error'), h('span', {}, block.text));
    case 'note':
      return h('div', { class: 'detail-note' }, block.text);
  }
}
