import { startersFor } from '../src/shared/demoModel';
import type { RunEvent } from '../src/shared/events';
import type { HostToWebview, ThreadSummary } from '../src/shared/protocol';
import { EMPTY_TREE, foldRunEvents, type RunTree } from '../src/shared/runTree';
import { Announcer } from './kit/announcer';
import { ConversationView } from './conversation/conversationView';
import { h, setAttr } from './kit/dom';
import { HeaderView } from './controls/headerView';
import { copyText, handleLinkActions } from './markdown/linkActions';
import { ModelChoiceView } from './controls/modelChoiceView';
import { ProblemsView } from './controls/problemsView';
import { PromptBox } from './prompt/promptBox';
import { RenderQueue } from './kit/renderQueue';
import { RunControlsSet } from './controls/runControls';
import { RunChangesControls } from './controls/runChangesView';
import { focusAfterApproval } from './conversation/approvalFocus';
import { runEndNews } from './conversation/runEndNews';
import { ScrollFollow } from './conversation/scrollFollow';
import { UiState } from './uiState';
import { VisibilityWatcher } from './kit/visibility';
import type { Host } from './kit/vscodeApi';

/** Per frame, at most this long goes to rendering the tree's markdown; the rest waits a frame. */
const MARKDOWN_BUDGET_MS = 3;

/**
 * The panel: lays out the views and feeds them host messages. Run events are folded with the
 * shared reducer and applied once per animation frame however many messages arrived in it; each
 * turn then touches only the runs whose node object changed.
 */
export class App {
  private tree: RunTree = EMPTY_TREE;
  private threadId: string | null = null;
  private threads: ThreadSummary[] = [];
  /** Events waiting for the next frame; `resetTo` set means a `state` replaces the tree first. */
  private pending: RunEvent[] = [];
  private resetTo: RunEvent[] | undefined;
  private frame = 0;
  private ticker = 0;
  private readonly markdown = new RenderQueue(MARKDOWN_BUDGET_MS);
  private readonly ui: UiState;
  private readonly header: HeaderView;
  private readonly problems: ProblemsView;
  private readonly modelChoice: ModelChoiceView;
  private readonly conversation: ConversationView;
  private readonly prompt: PromptBox;
  private readonly scroller: HTMLElement;
  private readonly scroll: ScrollFollow;
  private readonly announcer = new Announcer();
  private readonly runControls: RunControlsSet;
  private readonly runChanges: RunChangesControls;

  constructor(root: HTMLElement, host: Host) {
    const post = host.post.bind(host);
    this.ui = new UiState(host);
    this.problems = new ProblemsView(this.ui, { openLocation: (location) => post({ type: 'openLocation', location }) });
    this.header = new HeaderView({
      openThread: (threadId) => post({ type: 'openThread', threadId }),
      renameThread: (threadId, title) => post({ type: 'renameThread', threadId, title }),
      deleteThread: (threadId) => post({ type: 'deleteThread', threadId }),
      toggleRuns: () => this.setView(this.ui.view === 'runs' ? 'chat' : 'runs'),
    });
    this.scroller = h('main', { class: 'scroller', 'aria-label': 'Conversation and runs' });
    this.scroll = new ScrollFollow(this.scroller, this.ui);
    this.prompt = new PromptBox(this.ui, {
      send: (text, agent, attachments) =>
        post({ type: 'send', text, ...(agent ? { agent } : {}), ...(attachments.length ? { attachments } : {}) }),
      cancel: () => post({ type: 'cancel' }),
      unqueue: (id) => post({ type: 'unqueue', id }),
      attach: (kind) => post({ type: 'attach', kind }),
      detach: (id) => post({ type: 'detach', id }),
      listModels: () => post({ type: 'listModels' }),
      chooseModel: (id) => post({ type: 'chooseModel', id }),
    });
    this.runControls = new RunControlsSet({
      cancelRun: (runId) => post({ type: 'cancelRun', runId }),
      steerRun: (runId, text) => post({ type: 'steerRun', runId, text }),
    });
    this.runChanges = new RunChangesControls({
      openDiff: (threadId, runId, path) => post({ type: 'openChangeDiff', threadId, runId, path }),
      revert: (threadId, runId) => post({ type: 'revertRun', threadId, runId }),
      apply: (runId) => post({ type: 'applyWorktree', runId }),
      discard: (runId) => post({ type: 'discardWorktree', runId }),
    });
    this.conversation = new ConversationView(
      {
        // Each run's controls: Stop, budget, steering and "Why this config?"; then its changed files.
        runControls: (node, slots, prev) => {
          this.runControls.draw(node, slots, prev);
          this.runChanges.render(node, slots, prev);
        },
        ui: this.ui,
        watcher: new VisibilityWatcher(this.scroller),
        markdown: this.markdown,
        resolveApproval: (approvalId, decision) => post({ type: 'resolveApproval', approvalId, decision }),
        alwaysAllow: (approvalId, prefix) => post({ type: 'alwaysAllow', approvalId, prefix }),
        openApprovalDiff: (approvalId) => post({ type: 'openApprovalDiff', approvalId }),
        focusAfterApproval: (from) => focusAfterApproval(from, () => this.prompt.focus({ preventScroll: true })),
      },
      {
        copy: (text, button) => void copyText(text, button, this.announcer),
        edit: (text) => this.prompt.edit(text),
        retry: (text, agent) => post({ type: 'send', text, ...(agent ? { agent } : {}) }),
      },
    );
    this.scroller.append(this.conversation.el);
    this.modelChoice = new ModelChoiceView({
      list: () => post({ type: 'listModels' }),
      choose: (id) => post({ type: 'chooseModel', id }),
    });
    handleLinkActions(root, post, this.announcer);
    this.focusPromptOnArrival();
    root.replaceChildren(
      this.header.el,
      this.header.list.el,
      this.problems.el,
      this.modelChoice.el,
      this.scroller,
      this.prompt.el,
      this.announcer.el,
    );
    this.setView(this.ui.view);
  }

  receive(msg: HostToWebview): void {
    switch (msg.type) {
      case 'state':
        this.threadId = msg.threadId;
        this.threads = msg.threads;
        // Notices about another conversation wait until it is shown again.
        this.problems.showThread(msg.threadId);
        this.prompt.setQueued(msg.queued);
        this.setConfig(msg.config);
        this.prompt.setBusy(msg.busy);
        this.resetTo = msg.events;
        this.pending = [];
        return this.schedule();
      case 'events':
        // Events of a thread we are not showing (a late batch after a switch) are dropped.
        if (this.threadId === null) this.problems.showThread((this.threadId = msg.threadId));
        else if (msg.threadId !== this.threadId) return;
        for (const e of msg.events) this.pending.push(e);
        return this.schedule();
      case 'threads':
        this.threads = msg.threads;
        return this.updateHeader();
      case 'config':
        return this.setConfig(msg.config);
      case 'busy':
        return this.prompt.setBusy(msg.busy);
      case 'queued':
        // The host sends only the shown thread's queue; a new thread's id arrives with it first.
        if (this.threadId !== null && msg.threadId !== this.threadId) return;
        return this.prompt.setQueued(msg.queued);
      case 'notice':
        // One about another conversation is kept, hidden, for when that conversation is shown again.
        return this.problems.addNotice(msg.level, msg.message, msg.threadId);
      case 'modelChoices':
        this.modelChoice.setChoices(msg.choices, msg.notes);
        return this.prompt.model.setChoices(msg.choices, msg.notes);
      case 'attachments':
        return this.prompt.setAttachments(msg.items);
      case 'focusPrompt':
        return this.prompt.focus();
      case 'worktrees':
        return this.runChanges.setPending(msg.items);
      case 'revertUnavailable':
        return this.runChanges.setRevertUnavailable(msg.threads);
    }
  }

  /**
   * When the view gets the keyboard from the editor ("Focus on Chat View", a keybinding), the
   * page itself has focus and nothing in it would: the prompt takes it. A click into the panel
   * focuses what was clicked instead, so a pointer press in progress leaves focus alone.
   */
  private focusPromptOnArrival(): void {
    let pressing = false;
    window.addEventListener('pointerdown', () => (pressing = true), true);
    window.addEventListener('pointerup', () => (pressing = false), true);
    const nothingFocused = () => document.activeElement === document.body || document.activeElement === null;
    window.addEventListener('focus', () => {
      if (pressing || !nothingFocused()) return;
      // After the browser's own focus move (a Tab into the frame lands on its first stop): only if none happened.
      requestAnimationFrame(() => {
        if (!pressing && nothingFocused()) this.prompt.focus();
      });
    });
  }

  private setConfig(config: Parameters<ProblemsView['setConfig']>[0]): void {
    this.problems.setConfig(config);
    this.modelChoice.setConfig(config);
    this.conversation.setAgents(config.agents, startersFor(config.model));
    this.prompt.setConfig(config);
  }

  /** The chat, or every run of the thread without the messages' text (a long background run is never lost). */
  private setView(view: 'chat' | 'runs'): void {
    this.ui.view = view;
    setAttr(this.scroller, 'data-view', view);
    this.header.setRuns(view, this.conversation.running);
  }

  private schedule(): void {
    if (!this.frame) this.frame = requestAnimationFrame(() => this.flush());
  }

  private flush(): void {
    this.frame = 0;
    const reset = this.resetTo !== undefined;
    let prev = this.tree;
    if (this.resetTo) {
      // While layout is still clean this costs nothing; after the rebuild it would force a layout.
      this.scroller.scrollTop = 0;
      prev = EMPTY_TREE;
      this.tree = foldRunEvents(EMPTY_TREE, this.resetTo);
      this.resetTo = undefined;
      this.conversation.reset();
      this.markdown.clear();
    }
    if (this.pending.length) {
      this.tree = foldRunEvents(this.tree, this.pending);
      this.pending = [];
    }
    const changed = changedRuns(prev, this.tree);
    this.conversation.update(this.tree, changed, Date.now());
    this.runControls.refresh(this.tree, changed);
    this.updateHeader();
    this.updateTicker();
    this.markdown.drain();
    const news = reset ? { ended: [], text: [] } : runEndNews(prev, this.tree, changed);
    for (const line of news.text) this.announcer.say(line);
    if (reset) return this.scroll.afterReset(this.conversation.lastTurn()?.el, this.tree.roots.length);
    if (this.tree.roots.length > prev.roots.length) return this.scroll.follow(true);
    // A turn that just ended shows its answer from the start, unless the user scrolled away.
    const endedTurn = news.ended.find((id) => this.tree.runs[id]?.parentRunId === null);
    const answer = endedTurn ? this.conversation.turn(endedTurn)?.assistant : undefined;
    if (answer) return this.scroll.showStart(answer);
    if (changed.length) this.scroll.follow(false);
  }

  private updateHeader(): void {
    const first = this.tree.roots[0];
    this.header.update(this.threads, this.threadId, first ? (this.tree.runs[first]?.task ?? '') : '');
    this.header.setRuns(this.ui.view, this.conversation.running);
  }

  /** Elapsed times of running runs tick once a second, and only while something runs. */
  private updateTicker(): void {
    const running = this.conversation.running > 0;
    if (running && !this.ticker) {
      this.ticker = window.setInterval(() => this.conversation.tick(Date.now()), 1000);
    } else if (!running && this.ticker) {
      clearInterval(this.ticker);
      this.ticker = 0;
    }
  }
}

/** Runs whose node object differs: the reducer copies exactly the nodes a batch touched. */
function changedRuns(prev: RunTree, next: RunTree): string[] {
  if (prev === next) return [];
  const out: string[] = [];
  for (const id in next.runs) if (next.runs[id] !== prev.runs[id]) out.push(id);
  return out;
}
