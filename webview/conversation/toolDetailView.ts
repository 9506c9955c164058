import type { ToolCallNode } from '../../src/shared/runTree';
import { toolDetail, type DetailBlock } from '../../src/shared/toolDetail';
import { summarizeToolCall } from '../../src/shared/toolSummary';
import { codicon, fileLink, h } from '../kit/dom';

/**
 * A tool call opened: the tool's name, its full input, then its output as it reads best (a file's
 * text, a diff, a terminal block, a list with links). Built only when opened, and flowing with
 * the page: no box of its own that scrolls inside the panel's.
 */
export function toolDetailView(call: ToolCallNode): HTMLElement {
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
  for (const block of detail.output) el.append(blockView(block));
  if (call.state === 'running' && detail.output.length === 0) el.append(h('div', { class: 'detail-note' }, 'Running…'));
  else if (call.output === undefined && call.state !== 'running' && detail.output.length === 0)
    el.append(h('div', { class: 'detail-note' }, 'No output.'));
  return el;
}

function blockView(block: DetailBlock): HTMLElement {
  switch (block.kind) {
    case 'text':
      return h(
        'div',
        { class: 'detail-block' },
        h('div', { class: 'detail-title' }, block.title),
        h('pre', { class: 'detail-text' }, block.text),
      );
    case 'terminal':
      return h(
        'div',
        { class: 'terminal', role: 'group', 'aria-label': 'Command and its output' },
        h('div', { class: 'terminal-command' }, h('span', { class: 'terminal-prompt', 'aria-hidden': 'true' }, '$ '), block.command),
        ...(block.text ? [h('pre', { class: 'terminal-output' }, block.text)] : []),
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
      for (const item of block.items) ul.append(h('li', {}, item.file ? fileLink(item.file.path, item.file.line, item.text) : item.text));
      return h('div', { class: 'detail-block' }, h('div', { class: 'detail-title' }, `${block.title} (${block.items.length})`), ul);
    }
    case 'error':
      return h('div', { class: 'detail-error', role: 'note' }, codicon('error'), h('span', {}, block.text));
    case 'note':
      return h('div', { class: 'detail-note' }, block.text);
  }
}
