import { splitAttachedContext } from '../../src/shared/attachedContext';
import { retryText } from '../../src/shared/retryText';
import { type RunNode, type RunTree } from '../../src/shared/runTree';
import { runTotals } from '../../src/shared/runTotals';
import { formatStats } from '../../src/shared/usage';
import { codicon, h, iconButton, setAttr, setHidden, setText } from '../kit/dom';
import { renderMarkdown } from '../markdown/markdown';
import { runStateLabel } from './stateIcons';
import { renderTodoList } from './todoListView';
import { progressRing } from '../kit/toolkit';
import { TurnTree, type TurnTreeContext } from './turnTree';
import { HookRunsView } from './hookRunsView';

/**
 * One exchange: the user's prompt (the top run's task), the answer (its text, markdown, streamed
 * while it runs) and, under the answer, the tree of what the turn did. Each message has Copy; the
 * last prompt of the thread also has Edit (back into the box) and Retry (sent again, a new turn).
 */

export interface TurnActions {
  copy(text: string, button: HTMLElement): void;
  edit(prompt: string): void;
  retry(text: string, agent: string | undefined): void;
  /** Whether `agent` answered because the prompt named it (`@agent`), not as the supervisor. */
  isMentionable(agent: string): boolean;
}

export class TurnView {
  readonly el: HTMLElement;
  readonly assistant: HTMLElement;
  readonly tree: TurnTree;
  /** Made while the turn runs only: a finished turn (most of a long thread) needs no spinner element. */
  private ring: HTMLElement | undefined;
  private readonly status: HTMLElement;
  private readonly body: HTMLElement;
  private readonly error: HTMLElement;
  private readonly errorText: HTMLElement;
  private readonly warnings: HTMLElement;
  private readonly hookRuns = new HookRunsView();
  private readonly stats: HTMLElement;
  private readonly prompt: HTMLElement;
  private readonly attached: HTMLElement;
  private readonly author: HTMLElement;
  private readonly lastActions: HTMLElement;
  /** The top run's own controls (see RunNodeContext.runControls): what a run node has in its line and body (Stop, budget, "Why this config?", its changed files). */
  private readonly slots = { actions: h('span', { class: 'run-actions' }), controls: h('div', { class: 'run-controls' }) };
  private node: RunNode | undefined;

  constructor(
    runId: string,
    private readonly ctx: TurnTreeContext,
    private readonly actions: TurnActions,
  ) {
    this.tree = new TurnTree(runId, ctx);
    this.prompt = h('div', { class: 'message-body user-text' });
    this.attached = h('ul', { class: 'message-attachments', 'aria-label': 'Attached context', hidden: true });
    this.author = h('span', { class: 'author-name' });
    this.status = h('span', { class: 'message-status' });
    this.body = h('div', { class: 'message-body markdown' });
    this.errorText = h('span', {});
    this.error = h('div', { class: 'message-error', role: 'alert', hidden: true }, codicon('error'), this.errorText);
    this.warnings = h('ul', { class: 'message-warnings' });
    this.stats = h('div', { class: 'message-stats' });

    const copyAnswer = iconButton('Copy the answer', 'copy', 'message-copy');
    copyAnswer.addEventListener('click', () => this.actions.copy(this.node?.text ?? '', copyAnswer));
    this.assistant = h(
      'div',
      { class: 'message assistant', 'data-run-id': runId },
      h(
        'div',
        { class: 'message-author' },
        codicon('hubot'),
        this.author,
        this.status,
        this.slots.actions,
        h('span', { class: 'message-actions' }, copyAnswer),
      ),
      this.slots.controls,
      this.body,
      this.error,
      this.warnings,
      this.hookRuns.el,
      this.tree.el,
      this.stats,
    );

    const copyPrompt = iconButton('Copy the prompt', 'copy', 'message-copy');
    copyPrompt.addEventListener('click', () => this.actions.copy(this.userText(), copyPrompt));
    const edit = iconButton('Edit: put this prompt back in the box', 'edit', 'message-edit');
    edit.addEventListener('click', () => this.actions.edit(this.promptText()));
    const retry = iconButton('Retry: send this prompt again as a new turn', 'refresh', 'message-retry');
    retry.addEventListener('click', () => {
      const node = this.node;
      if (node) this.actions.retry(node.task, this.mention(node));
    });
    this.lastActions = h('span', { class: 'message-last-actions', hidden: true }, edit, retry);
    const user = h(
      'div',
      { class: 'message user' },
      h(
        'div',
        { class: 'message-author' },
        codicon('account'),
        h('span', {}, 'You'),
        h('span', { class: 'message-actions' }, copyPrompt, this.lastActions),
      ),
      this.prompt,
      this.attached,
    );
    this.el = h('div', { class: 'turn', 'data-run-id': runId }, user, this.assistant);
  }

  /** Only the thread's last prompt can be edited or retried. */
  setLast(last: boolean): void {
    setHidden(this.lastActions, !last);
  }

  update(tree: RunTree, node: RunNode): void {
    const prev = this.node;
    this.node = node;
    // The prompt is the user's own text: plain, never markdown; what was attached shows as chips.
    if (prev?.task !== node.task) {
      const { prompt, attachments } = splitAttachedContext(node.task);
      setText(this.prompt, prompt);
      this.attached.replaceChildren(
        ...attachments.map((a) =>
          h('li', { class: 'attachment-chip', title: a.label }, codicon(a.kind === 'file' ? 'file' : 'selection'), h('span', {}, a.label)),
        ),
      );
      setHidden(this.attached, attachments.length === 0);
    }
    if (prev?.agent !== node.agent) setText(this.author, node.agent);
    // Rendered now, not queued like the tree's: the answer is what the user is watching, and its
    // text must be in place when data-state says the run is done.
    if (prev?.text !== node.text) renderMarkdown(this.body, node.text);
    if (prev?.warnings !== node.warnings)
      this.warnings.replaceChildren(...node.warnings.map((w) => h('li', { class: 'run-warning' }, codicon('warning'), h('span', {}, w))));
    if (prev?.hooks !== node.hooks) this.hookRuns.update(node.hooks);
    if (prev?.toolCalls !== node.toolCalls) renderTodoList(this.assistant, node, this.tree.el);
    this.ctx.runControls?.(node, this.slots, prev);
    if (prev?.state === node.state && prev.error === node.error && prev.bailed === node.bailed && prev.retrying === node.retrying) return;
    const running = node.state === 'running';
    setAttr(this.assistant, 'data-state', node.state);
    // Screen readers wait for the finished answer instead of reading every streamed piece.
    setAttr(this.assistant, 'aria-busy', String(running));
    if (running && !this.ring) {
      this.ring = progressRing('Working');
      this.status.before(this.ring);
    }
    if (this.ring) setHidden(this.ring, !running);
    const status = running ? (node.retrying ? retryText(node.retrying) : 'working…') : node.state === 'ok' ? '' : runStateLabel(node.state);
    setText(this.status, node.bailed ? `${status} (a subagent's answer, returned directly)`.trim() : status);
    const failed = node.state === 'error' || node.error !== undefined;
    setHidden(this.error, !failed);
    setText(this.errorText, failed ? (node.error ?? 'The run failed.') : '');
    if (running) return setText(this.stats, '');
    const totals = runTotals(tree, node.runId);
    setText(this.stats, `${formatStats(totals.durationMs, totals.usage)}${totals.runs > 1 ? ` · ${totals.runs - 1} subagent runs` : ''}`);
  }

  private mention(node: RunNode): string | undefined {
    return this.actions.isMentionable(node.agent) ? node.agent : undefined;
  }

  /** The user's own words, without the attached context. */
  private userText(): string {
    return this.node ? splitAttachedContext(this.node.task).prompt : '';
  }

  private promptText(): string {
    const node = this.node;
    if (!node) return '';
    const agent = this.mention(node);
    return agent ? `@${agent} ${this.userText()}` : this.userText();
  }
}
