import type { PanelConfig } from '../src/shared/protocol';
import { retryText } from '../src/shared/retryText';
import { runTotals, type RunNode, type RunTree } from '../src/shared/runTree';
import { formatStats } from '../src/shared/usage';
import { codicon, h, setAttr, setHidden, setText } from './dom';
import { renderMarkdown } from './markdown';
import { runStateLabel } from './stateIcons';
import { progressRing } from './toolkit';

/**
 * The chat (`#conversation`): each top-level run is one exchange, the user's prompt (the run's
 * task) and the supervisor's answer (its text, markdown, streamed while it runs).
 */

class TurnView {
  readonly el: HTMLElement;
  private readonly assistant: HTMLElement;
  private readonly ring: HTMLElement;
  private readonly status: HTMLElement;
  private readonly body: HTMLElement;
  private readonly error: HTMLElement;
  private readonly errorText: HTMLElement;
  private readonly stats: HTMLElement;
  private readonly prompt: HTMLElement;
  private readonly author: HTMLElement;
  private node: RunNode | undefined;

  constructor(runId: string) {
    this.prompt = h('div', { class: 'message-body user-text' });
    this.author = h('span', { class: 'author-name' });
    this.ring = progressRing('Working');
    this.status = h('span', { class: 'message-status' });
    this.body = h('div', { class: 'message-body markdown' });
    this.errorText = h('span', {});
    this.error = h('div', { class: 'message-error', role: 'alert', hidden: true }, codicon('error'), this.errorText);
    this.stats = h('div', { class: 'message-stats' });
    this.assistant = h(
      'div',
      { class: 'message assistant', 'data-run-id': runId },
      h('div', { class: 'message-author' }, codicon('hubot'), this.author, this.ring, this.status),
      this.body,
      this.error,
      this.stats,
    );
    const user = h('div', { class: 'message user' }, h('div', { class: 'message-author' }, codicon('account'), h('span', {}, 'You')), this.prompt);
    this.el = h('div', { class: 'turn', 'data-run-id': runId }, user, this.assistant);
  }

  update(tree: RunTree, node: RunNode): void {
    const prev = this.node;
    this.node = node;
    // The prompt is the user's own text: plain, never markdown.
    if (prev?.task !== node.task) setText(this.prompt, node.task);
    if (prev?.agent !== node.agent) setText(this.author, node.agent);
    // Rendered now, not queued like the tree's: the answer is what the user is watching, and its
    // text must be in place when data-state says the run is done.
    if (prev?.text !== node.text) renderMarkdown(this.body, node.text);
    if (prev?.state === node.state && prev.error === node.error && prev.bailed === node.bailed && prev.retrying === node.retrying) return;
    const running = node.state === 'running';
    setAttr(this.assistant, 'data-state', node.state);
    // Screen readers wait for the finished answer instead of reading every streamed piece.
    setAttr(this.assistant, 'aria-busy', String(running));
    setHidden(this.ring, !running);
    const status = running ? (node.retrying ? retryText(node.retrying) : 'working…') : node.state === 'ok' ? '' : runStateLabel(node.state);
    setText(this.status, node.bailed ? `${status} (a subagent's answer, returned directly)`.trim() : status);
    const failed = node.state === 'error' || node.error !== undefined;
    setHidden(this.error, !failed);
    setText(this.errorText, failed ? (node.error ?? 'The run failed.') : '');
    if (!running) {
      const totals = runTotals(tree, node.runId);
      setText(this.stats, `${formatStats(totals.durationMs, totals.usage)}${totals.runs > 1 ? ` · ${totals.runs - 1} subagent runs` : ''}`);
    } else {
      setText(this.stats, '');
    }
  }
}

export class ConversationView {
  readonly el: HTMLElement;
  private readonly emptyState: HTMLElement;
  private readonly turns = new Map<string, TurnView>();
  private roots: readonly string[] = [];

  constructor() {
    this.emptyState = h('div', { class: 'empty-state' });
    this.el = h('div', { id: 'conversation', role: 'log', 'aria-label': 'Conversation' }, this.emptyState);
    this.setAgents([]);
  }

  lastTurn(): HTMLElement | undefined {
    const id = this.roots[this.roots.length - 1];
    return id ? this.turns.get(id)?.el : undefined;
  }

  reset(): void {
    this.turns.clear();
    this.roots = [];
    this.el.replaceChildren(this.emptyState);
    setHidden(this.emptyState, false);
  }

  /** The welcome text lists whom the supervisor can delegate to. */
  setAgents(agents: PanelConfig['agents']): void {
    const list = agents.map((a) => h('li', {}, h('strong', {}, a.displayName ? `${a.displayName} (${a.name})` : a.name), a.description ? `: ${a.description}` : ''));
    this.emptyState.replaceChildren(
      h('p', {}, 'Ask the supervisor for something; it delegates parts of the work to subagents and shows their runs below.'),
      ...(list.length ? [h('p', {}, 'Subagents:'), h('ul', {}, ...list)] : []),
    );
  }

  update(tree: RunTree, changed: readonly string[]): void {
    if (tree.roots !== this.roots) {
      for (const id of tree.roots) {
        if (this.turns.has(id)) continue;
        const turn = new TurnView(id);
        this.turns.set(id, turn);
        this.el.append(turn.el);
      }
      this.roots = tree.roots;
      setHidden(this.emptyState, this.turns.size > 0);
    }
    for (const id of changed) {
      const node = tree.runs[id];
      if (node) this.turns.get(id)?.update(tree, node);
    }
  }
}
