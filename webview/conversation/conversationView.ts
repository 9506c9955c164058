import type { PanelConfig } from '../../src/shared/protocol';
import type { RunTree } from '../../src/shared/runTree';
import { h, setHidden } from '../kit/dom';
import { TurnView, type TurnActions } from './turnView';
import type { LineBudget, TurnTreeContext } from './turnTree';

/** Run lines a frame builds at once (see LineBudget); the rest build as they come into view. */
const EAGER_LINES = 60;

/**
 * The chat (`#conversation`): one TurnView per top-level run, in order, each carrying its own
 * tree. A batch's changed runs are handed to the turn they belong to (found once per run, by its
 * top ancestor), so a turn whose runs did not change is not visited.
 */
export class ConversationView {
  readonly el: HTMLElement;
  private readonly emptyState: HTMLElement;
  private readonly turns = new Map<string, TurnView>();
  /** Each run's top-level run (its turn), remembered: ancestry never changes. */
  private readonly turnOf = new Map<string, string>();
  private roots: readonly string[] = [];
  private agentNames = new Set<string>();

  constructor(
    private readonly ctx: TurnTreeContext,
    private readonly actions: Omit<TurnActions, 'isMentionable'>,
  ) {
    this.emptyState = h('div', { class: 'empty-state' });
    this.el = h('div', { id: 'conversation', role: 'log', 'aria-label': 'Conversation' }, this.emptyState);
    this.setAgents([]);
  }

  lastTurn(): TurnView | undefined {
    const id = this.roots[this.roots.length - 1];
    return id ? this.turns.get(id) : undefined;
  }

  turn(rootId: string): TurnView | undefined {
    return this.turns.get(rootId);
  }

  /** Runs still working, in every turn (a background child can outlive its turn). */
  get running(): number {
    let n = 0;
    for (const t of this.turns.values()) n += t.tree.runningIds.size;
    return n;
  }

  tick(now: number): void {
    for (const t of this.turns.values()) if (t.tree.runningIds.size) t.tree.tick(now);
  }

  reset(): void {
    this.turns.clear();
    this.turnOf.clear();
    this.roots = [];
    this.el.replaceChildren(this.emptyState);
    setHidden(this.emptyState, false);
  }

  /** The welcome text lists whom the supervisor can delegate to (and whom `@` can name), and what to try asking (the demo's question). */
  setAgents(agents: PanelConfig['agents'], starters: readonly string[] = []): void {
    this.agentNames = new Set(agents.map((a) => a.name));
    const list = agents.map((a) =>
      h('li', {}, h('strong', {}, a.displayName ? `${a.displayName} (${a.name})` : a.name), a.description ? `: ${a.description}` : ''),
    );
    this.emptyState.replaceChildren(
      h(
        'p',
        {},
        'Ask the supervisor for something; it delegates parts of the work to subagents, and each answer shows what they did under it.',
      ),
      ...(starters.length
        ? [h('p', {}, 'Try asking:'), h('ul', { class: 'starters' }, ...starters.map((s) => h('li', {}, this.starter(s))))]
        : []),
      ...(list.length ? [h('p', {}, 'Subagents (start a prompt with @name to ask one directly):'), h('ul', {}, ...list)] : []),
    );
  }

  /** A suggested question: a click puts it in the prompt box, to send or change. */
  private starter(text: string): HTMLElement {
    const b = h('button', { type: 'button', class: 'starter' }, text);
    b.addEventListener('click', () => this.actions.edit(text));
    return b;
  }

  update(tree: RunTree, changed: readonly string[], now: number): void {
    if (tree.roots !== this.roots) {
      for (const id of tree.roots) {
        if (this.turns.has(id)) continue;
        const turn = new TurnView(id, this.ctx, { ...this.actions, isMentionable: (agent) => this.agentNames.has(agent) });
        this.turns.set(id, turn);
        this.el.append(turn.el);
      }
      const before = this.lastTurn();
      this.roots = tree.roots;
      const last = this.lastTurn();
      if (before !== last) before?.setLast(false);
      last?.setLast(true);
      setHidden(this.emptyState, this.turns.size > 0);
    }
    const byTurn = new Map<string, string[]>();
    for (const id of changed) {
      const root = this.rootOf(tree, id);
      if (!root) continue;
      const ids = byTurn.get(root);
      if (ids) ids.push(id);
      else byTurn.set(root, [id]);
    }
    // Latest turns first: a thread opens at its last turn, so that is where lines are looked at.
    const budget: LineBudget = { left: EAGER_LINES };
    for (const [root, ids] of [...byTurn].reverse()) {
      const turn = this.turns.get(root);
      const node = tree.runs[root];
      if (!turn || !node) continue;
      if (ids.includes(root)) turn.update(tree, node);
      turn.tree.update(tree, ids, now, budget);
    }
  }

  private rootOf(tree: RunTree, id: string): string | undefined {
    const known = this.turnOf.get(id);
    if (known) return known;
    let cur = id;
    for (let p = tree.runs[cur]?.parentRunId; p && tree.runs[p]; p = tree.runs[p]?.parentRunId) cur = p;
    if (!this.turns.has(cur)) return undefined;
    this.turnOf.set(id, cur);
    return cur;
  }
}
