import type { HookRunNode } from '../../src/shared/runTree';
import { oneLine } from '../../src/shared/oneLine';
import { formatDuration } from '../../src/shared/usage';
import { codicon, h, setAttr, setHidden, setText } from '../kit/dom';

/**
 * The hooks that ran on a run (hook.ran), compactly: one `<details>` whose summary counts them
 * ("2 hooks ran · 1 blocked"), opened to a row per run: event, command, exit, duration and what it
 * decided, with its reason. A native disclosure, so Tab reaches it and Enter or Space opens it,
 * inside the tree as outside it (the tree's keys are only its items'). Everything a hook said is
 * text (setText), never markup: its output is another program's.
 */
export class HookRunsView {
  readonly el: HTMLDetailsElement;
  private readonly summary: HTMLElement;
  private readonly list: HTMLUListElement;
  private shown: readonly HookRunNode[] = [];

  constructor() {
    this.summary = h('summary', { class: 'hook-runs-summary' });
    this.list = h('ul', { class: 'hook-runs-list' });
    this.el = h('details', { class: 'hook-runs', hidden: true }, this.summary, this.list);
  }

  update(hooks: readonly HookRunNode[] | undefined): void {
    const runs = hooks ?? [];
    if (runs === this.shown) return;
    setHidden(this.el, runs.length === 0);
    // The reducer only appends: rows already drawn stay as they are.
    for (let i = this.list.children.length; i < runs.length; i++) this.list.append(hookRow(runs[i]!));
    while (this.list.children.length > runs.length) this.list.lastElementChild!.remove();
    this.shown = runs;
    const stopped = runs.filter((r) => STOPPING.has(r.decision)).length;
    const failed = runs.filter((r) => r.exitCode !== 0 && r.exitCode !== 2).length;
    setText(
      this.summary,
      `${runs.length} hook${runs.length === 1 ? '' : 's'} ran` +
        (stopped ? ` · ${stopped} blocked` : '') +
        (failed ? ` · ${failed} with ${failed === 1 ? 'a warning' : 'warnings'}` : ''),
    );
    setAttr(this.el, 'data-blocked', String(stopped));
  }
}

/** Decisions that kept something from happening (a tool call, the run's end, the run). */
const STOPPING = new Set(['deny', 'block', 'stop']);

/** Terminal colour codes and other control characters a hook printed: shown as nothing, not as boxes. */
const CONTROLS = /\x1b\[[0-?]*[ -/]*[@-~]|[\x00-\x08\x0b-\x1f\x7f]/g;
const shown = (text: string, max: number): string => oneLine(text.replace(CONTROLS, ''), max);

function hookRow(run: HookRunNode): HTMLLIElement {
  const exit = run.exitCode === null ? 'killed' : `exit ${run.exitCode}`;
  const decided = run.decision === 'none' ? 'no decision' : run.decision;
  const row = h(
    'li',
    {
      class: 'hook-run',
      'data-event': run.event,
      'data-exit': run.exitCode === null ? 'killed' : String(run.exitCode),
      'data-decision': run.decision,
      title: `${run.command}\nfrom ${run.source}`,
    },
    codicon(STOPPING.has(run.decision) ? 'shield' : run.exitCode === 0 ? 'check' : 'warning'),
    h('span', { class: 'hook-run-event' }, run.event),
    h('code', { class: 'hook-run-command' }, shown(run.command, 80)),
    h('span', { class: 'hook-run-outcome' }, `${exit} · ${formatDuration(run.durationMs)} · ${decided}`),
  );
  if (run.note) row.append(h('span', { class: 'hook-run-note' }, shown(run.note, 300)));
  return row;
}
