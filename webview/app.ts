import type { ApprovalDecision, RunEvent } from '../src/shared/events';
import type { HostToWebview, ThreadSummary } from '../src/shared/protocol';
import { EMPTY_TREE, foldRunEvents, type RunTree } from '../src/shared/runTree';
import { ConversationView } from './conversationView';
import { h, setHidden, setText } from './dom';
import { HeaderView } from './headerView';
import { ModelChoiceView } from './modelChoiceView';
import { ProblemsView } from './problemsView';
import { PromptBox } from './promptBox';
import { RenderQueue } from './renderQueue';
import { RunTreeView } from './runTreeView';
import { badge, divider } from './toolkit';
import { UiState } from './uiState';
import { VisibilityWatcher } from './visibility';
import type { Host } from './vscodeApi';

/** Per frame, at most this long goes to rendering the tree's markdown; the rest waits a frame. */
const MARKDOWN_BUDGET_MS = 3;

/**
 * The panel: lays out the views and feeds them host messages. Run events are folded with the
 * shared reducer and applied once per animation frame however many messages arrived in it; each
 * view then touches only the runs whose node object changed.
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
  private scrollRestored = false;
  /** Whether the view follows new content: true while the user is at the bottom. Kept from scroll
   * events, so a frame never has to read layout before it writes. */
  private stuck = true;
  private readonly markdown = new RenderQueue(MARKDOWN_BUDGET_MS);
  private readonly ui: UiState;
  private readonly header: HeaderView;
  private readonly problems: ProblemsView;
  private readonly modelChoice: ModelChoiceView;
  private readonly conversation = new ConversationView();
  private readonly runTree: RunTreeView;
  private readonly runsSection: HTMLElement;
  private readonly runCount: HTMLElement;
  private readonly prompt: PromptBox;
  private readonly scroller: HTMLElement;

  constructor(root: HTMLElement, host: Host) {
    this.ui = new UiState(host);
    this.problems = new ProblemsView(this.ui, { openLocation: (location) => host.post({ type: 'openLocation', location }) });
    this.header = new HeaderView({
      openThread: (threadId) => host.post({ type: 'openThread', threadId }),
      newThread: () => host.post({ type: 'newThread' }),
    });
    this.scroller = h('main', { class: 'scroller' });
    this.runTree = new RunTreeView({
      ui: this.ui,
      watcher: new VisibilityWatcher(this.scroller),
      markdown: this.markdown,
      resolveApproval: (approvalId: string, decision: ApprovalDecision) => host.post({ type: 'resolveApproval', approvalId, decision }),
    });
    this.prompt = new PromptBox(this.ui, {
      send: (text) => host.post({ type: 'send', text }),
      cancel: () => host.post({ type: 'cancel' }),
      unqueue: (id) => host.post({ type: 'unqueue', id }),
    });
    this.runCount = badge('0', 'run-count');
    this.runsSection = h(
      'section',
      { class: 'runs', 'aria-label': 'Runs', hidden: true },
      divider(),
      h('h2', { class: 'section-title' }, 'Runs', this.runCount),
      this.runTree.el,
    );
    this.scroller.append(this.conversation.el, this.runsSection);
    this.scroller.addEventListener(
      'scroll',
      () => {
        this.ui.scrollTop = this.scroller.scrollTop;
        this.measureStuck();
      },
      { passive: true },
    );
    this.modelChoice = new ModelChoiceView({
      list: () => host.post({ type: 'listModels' }),
      choose: (id) => host.post({ type: 'chooseModel', id }),
    });
    root.replaceChildren(this.header.el, this.problems.el, this.modelChoice.el, this.scroller, this.prompt.el);
  }

  receive(msg: HostToWebview): void {
    switch (msg.type) {
      case 'state':
        this.threadId = msg.threadId;
        this.threads = msg.threads;
        // A notice about another conversation is stale here.
        this.problems.showThread(msg.threadId);
        this.prompt.setQueued(msg.queued);
        this.problems.setConfig(msg.config);
        this.modelChoice.setConfig(msg.config);
        this.conversation.setAgents(msg.config.agents);
        this.prompt.setBusy(msg.busy);
        this.resetTo = msg.events;
        this.pending = [];
        return this.schedule();
      case 'events':
        // Events of a thread we are not showing (a late batch after a switch) are dropped.
        if (this.threadId === null) this.threadId = msg.threadId;
        else if (msg.threadId !== this.threadId) return;
        for (const e of msg.events) this.pending.push(e);
        return this.schedule();
      case 'threads':
        this.threads = msg.threads;
        return this.updateHeader();
      case 'config':
        this.problems.setConfig(msg.config);
        this.modelChoice.setConfig(msg.config);
        return this.conversation.setAgents(msg.config.agents);
      case 'busy':
        return this.prompt.setBusy(msg.busy);
      case 'queued':
        // The host sends only the shown thread's queue; a new thread's id arrives with it first.
        if (this.threadId !== null && msg.threadId !== this.threadId) return;
        return this.prompt.setQueued(msg.queued);
      case 'notice':
        if (msg.threadId !== undefined && this.threadId !== null && msg.threadId !== this.threadId) return;
        return this.problems.addNotice(msg.level, msg.message, msg.threadId);
      case 'modelChoices':
        return this.modelChoice.setChoices(msg.choices, msg.notes);
    }
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
      this.runTree.reset();
      this.markdown.clear();
    }
    if (this.pending.length) {
      this.tree = foldRunEvents(this.tree, this.pending);
      this.pending = [];
    }
    const changed = changedRuns(prev, this.tree);
    const now = Date.now();
    this.conversation.update(this.tree, changed);
    this.runTree.update(this.tree, changed, now);
    setText(this.runCount, String(this.runTree.size));
    setHidden(this.runsSection, this.runTree.size === 0);
    this.updateHeader();
    this.updateTicker();
    this.markdown.drain();
    if (reset) this.scrollAfterReset();
    else if (this.tree.roots.length > prev.roots.length) this.follow(true);
    else if (changed.length) this.follow(false);
  }

  private measureStuck(): void {
    const s = this.scroller;
    this.stuck = s.scrollTop + s.clientHeight >= s.scrollHeight - 24;
  }

  /** Back where the user was when the webview was re-created; else at the thread's latest exchange. */
  private scrollAfterReset(): void {
    // Whether the new content fits is known after this frame's layout: read it then, not now.
    requestAnimationFrame(() => this.measureStuck());
    if (!this.scrollRestored) {
      this.scrollRestored = true;
      if (this.ui.scrollTop) {
        this.scroller.scrollTop = this.ui.scrollTop;
        return;
      }
    }
    // A single exchange starts at the top, where the view already is.
    if (this.tree.roots.length > 1) this.conversation.lastTurn()?.scrollIntoView({ block: 'start' });
  }

  /** New content is followed while the user stays at the bottom, and always when a new exchange
   * starts (the user just sent it). */
  private follow(newTurn: boolean): void {
    if (newTurn) this.stuck = true;
    if (this.stuck) this.scroller.scrollTop = this.scroller.scrollHeight;
  }

  private updateHeader(): void {
    const first = this.tree.roots[0];
    this.header.update(this.threads, this.threadId, first ? (this.tree.runs[first]?.task ?? '') : '');
  }

  /** Elapsed times of running runs tick once a second, and only while something runs. */
  private updateTicker(): void {
    if (this.runTree.hasRunning && !this.ticker) {
      this.ticker = window.setInterval(() => this.runTree.tick(Date.now()), 1000);
    } else if (!this.runTree.hasRunning && this.ticker) {
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
