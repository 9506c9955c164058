import { changesLeft, fileChangeText, runChangesText } from '../../src/shared/changeSummary';
import type { PendingWorktreeView } from '../../src/shared/protocol';
import type { FileChangeNode, RunNode } from '../../src/shared/runTree';
import { codicon, h, setHidden, setText } from '../kit/dom';
import type { RunControlSlots } from '../conversation/runNodeContent';
import { button, setButtonDisabled } from '../kit/toolkit';

/** What the changes block asks the host for. */
export interface RunChangesActions {
  openDiff(threadId: string, runId: string, path: string): void;
  revert(threadId: string, runId: string): void;
  apply(runId: string): void;
  discard(runId: string): void;
}

/**
 * The files a run changed, on its node: "N files changed (+a −b)" in its live line, and, expanded,
 * each file (a click opens its diff) with "Revert this run's changes"; a worktree run whose
 * changes wait offers "Apply to workspace" and "Discard" instead. Fills the node's control slots
 * (RunNodeContext.runControls) and knows the pending worktrees the host reports.
 */
export class RunChangesControls {
  private readonly blocks = new Map<string, RunChangesBlock>();
  private pending = new Map<string, PendingWorktreeView>();
  /** Threads whose runs can no longer be reverted, with why (the host's word). */
  private lost: Readonly<Record<string, string>> = {};

  constructor(private readonly actions: RunChangesActions) {}

  /** For RunNodeContext.runControls: called when a node is built and whenever it changes. */
  readonly render = (node: RunNode, slots: RunControlSlots, prev: RunNode | undefined): void => {
    let block = this.blocks.get(node.runId);
    if (!block || !block.within(slots)) {
      if (!node.changes && !this.pending.has(node.runId)) return; // nothing to show: no room taken
      block = new RunChangesBlock(slots, this.actions, (threadId) => this.lost[threadId]);
      this.blocks.set(node.runId, block);
    } else if (prev && prev.changes === node.changes && prev.state === node.state && prev.reverted === node.reverted) return;
    block.render(node, this.pending.get(node.runId));
  };

  /** The host's list of worktree runs waiting for Apply or Discard. */
  setPending(items: readonly PendingWorktreeView[]): void {
    this.pending = new Map(items.map((i) => [i.runId, i]));
    this.redraw();
  }

  /** The host's threads whose snapshots the size cap took: their runs say so instead of offering Revert. */
  setRevertUnavailable(threads: Readonly<Record<string, string>>): void {
    this.lost = threads;
    this.redraw();
  }

  private redraw(): void {
    for (const [runId, block] of this.blocks) {
      // A node of a thread no longer shown: forget it.
      if (!block.connected) this.blocks.delete(runId);
      else block.render(undefined, this.pending.get(runId));
    }
  }
}

class RunChangesBlock {
  private readonly chip: HTMLElement;
  private readonly block: HTMLElement;
  private readonly heading: HTMLElement;
  private readonly list: HTMLUListElement;
  private readonly buttons: HTMLElement;
  private node: RunNode | undefined;

  constructor(
    private readonly slots: RunControlSlots,
    private readonly actions: RunChangesActions,
    private readonly revertUnavailable: (threadId: string) => string | undefined,
  ) {
    this.chip = h('span', { class: 'run-changes-chip' }, codicon('diff'), h('span', {}));
    this.heading = h('div', { class: 'run-changes-heading' });
    this.list = h('ul', { class: 'run-changes-files', 'aria-label': 'Files this run changed' });
    this.buttons = h('div', { class: 'run-changes-actions' });
    this.block = h('div', { class: 'run-changes', role: 'group', 'aria-label': 'Changed files' }, this.heading, this.list, this.buttons);
    slots.actions.prepend(this.chip);
    slots.controls.append(this.block);
  }

  within(slots: RunControlSlots): boolean {
    return this.slots.controls === slots.controls;
  }

  get connected(): boolean {
    return this.block.isConnected;
  }

  render(node: RunNode | undefined, pending: PendingWorktreeView | undefined): void {
    if (node) this.node = node;
    const run = this.node;
    if (!run) return;
    const changes = run.changes;
    setHidden(this.chip, !changes && !pending);
    setHidden(this.block, !changes && !pending);
    const summary = pending
      ? `${pending.files} file${pending.files === 1 ? '' : 's'} changed in a worktree (+${pending.added} −${pending.removed}), not yet in the workspace`
      : runChangesText(run);
    // Once nothing is left to undo the node says so, not how much it changed (issue 42).
    const reverted = !pending && !!changes && changesLeft(run).length === 0 && !!run.reverted;
    this.chip.classList.toggle('reverted', reverted);
    this.block.classList.toggle('reverted', reverted);
    setText(this.chip.lastElementChild!, summary);
    this.chip.title = summary;
    setText(this.heading, summary);
    this.list.replaceChildren(...(changes?.files ?? []).map((f) => this.fileRow(run, f)));
    this.buttons.replaceChildren(...this.controls(run, pending));
  }

  private fileRow(run: RunNode, file: FileChangeNode): HTMLLIElement {
    const reverted = run.reverted?.files.includes(file.path) ? ' · reverted' : '';
    const open = h(
      'a',
      { href: '#', class: 'run-change-file', title: `Open the diff of ${file.path}`, 'data-path': file.path },
      codicon(file.beforeHash === null ? 'diff-added' : file.afterHash === null ? 'diff-removed' : 'diff-modified'),
      h('span', {}, fileChangeText(file) + reverted),
    );
    open.addEventListener('click', (e) => {
      e.preventDefault();
      this.actions.openDiff(run.threadId, run.runId, file.path);
    });
    return h('li', { class: file.attribution === 'overlap' ? 'run-change overlap' : 'run-change' }, open);
  }

  private controls(run: RunNode, pending: PendingWorktreeView | undefined): HTMLElement[] {
    // A run still working may change more: its changes are undone or applied once it has ended.
    if (run.state === 'running') return [];
    if (pending) {
      const apply = button({ label: 'Apply to workspace', icon: 'check', appearance: 'primary', className: 'apply-worktree' });
      const discard = button({ label: 'Discard', icon: 'trash', appearance: 'secondary', className: 'discard-worktree' });
      apply.addEventListener('click', () => this.once([apply, discard], () => this.actions.apply(run.runId)));
      discard.addEventListener('click', () => this.once([apply, discard], () => this.actions.discard(run.runId)));
      return [apply, discard, h('span', { class: 'run-changes-note' }, `Branch ${pending.branch}`)];
    }
    if (!run.changes) return [];
    if (run.reverted && changesLeft(run).length === 0)
      return [h('span', { class: 'run-changes-note' }, "Reverted: this run's files are as they were before it.")];
    const lost = this.revertUnavailable(run.threadId);
    if (lost) return [h('span', { class: 'run-changes-note' }, `This run's changes can no longer be reverted: ${lost}.`)];
    const revert = button({ label: "Revert this run's changes", icon: 'discard', appearance: 'secondary', className: 'revert-run' });
    revert.addEventListener('click', () => this.once([revert], () => this.actions.revert(run.threadId, run.runId)));
    return [revert];
  }

  /** One click per answer: the host answers every such request with a new worktree list, which draws the buttons again. */
  private once(buttons: HTMLElement[], act: () => void): void {
    for (const b of buttons) setButtonDisabled(b, true);
    act();
  }
}
