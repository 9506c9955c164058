import { TokenBudget } from '../budget/tokenBudget';
import type { RunResult } from './runResult';

/** Where a run stands in the tree; fixed when it starts. */
export interface RunPlace {
  runId: string;
  threadId: string;
  /** The thread the user talks in; every run of one request shares it. */
  rootThreadId: string;
  agent: string;
  /** The model spec this run uses; children without a model of their own inherit it. */
  modelSpec: string;
  parent: RunHandle | null;
  /** The parent's tool call that started this run: a replayed call finds the run by it. */
  parentToolCallId?: string;
  /** The tokens it may use, counted up its chain (default: no limit of its own, its parent's above). */
  budget?: TokenBudget;
}

/** Who stopped one run on its own (not its thread): its parent is told. */
export type StopCause = 'user' | 'parent';

/** Who sent a run a message while it worked. */
export type MessageSender = 'user' | 'parent';

/** A run started by another run: what the parent knows of it. */
export interface ChildRecord {
  readonly handle: RunHandle;
  /** Started with delegate_task's background: its result is announced to the parent when it ends. */
  readonly background: boolean;
  /** The parent's model has seen the result (returned by a tool, or announced): never again. */
  delivered: boolean;
  /** background_runs waits for it, which will return the result themselves. */
  awaited: number;
}

/** A message waiting for the run's model: a background child's report, or a steer. */
export interface Announcement {
  /** child thread + run id: one announcement per finished run, whatever happens. None for a steer. */
  key?: string;
  text: string;
}

const PROGRESS_ITEMS = 3;

/**
 * A run the engine started: its place in the tree, its controls, and the state that only it
 * changes: what it did last, the children it started, the reports waiting for its model, and
 * its end, which happens once.
 */
export class RunHandle implements RunPlace {
  readonly runId: string;
  readonly threadId: string;
  readonly rootThreadId: string;
  readonly agent: string;
  readonly agentPath: readonly string[];
  readonly depth: number;
  readonly modelSpec: string;
  readonly parent: RunHandle | null;
  readonly parentToolCallId?: string;
  readonly budget: TokenBudget;
  readonly controller = new AbortController();
  /** Resolves once, with the run's result; never rejects. */
  readonly done: Promise<RunResult>;

  private settle!: (result: RunResult) => void;
  private ended: RunResult | undefined;
  private readonly recent: string[] = [];
  private readonly children = new Map<string, ChildRecord>();
  private starting = 0;
  private mailbox: Announcement[] = [];
  private mailWaiters: (() => void)[] = [];
  private readonly announced = new Set<string>();
  private bailed: { agent: string; output: string } | undefined;
  private stoppedBy: StopCause | undefined;
  /** Steers are taken until the run's work is done; after that it answers that it has finished. */
  private takingMessages = true;

  constructor(place: RunPlace) {
    this.runId = place.runId;
    this.threadId = place.threadId;
    this.rootThreadId = place.rootThreadId;
    this.agent = place.agent;
    this.modelSpec = place.modelSpec;
    this.parent = place.parent;
    if (place.parentToolCallId !== undefined) this.parentToolCallId = place.parentToolCallId;
    this.agentPath = [...(place.parent?.agentPath ?? []), place.agent];
    this.depth = place.parent ? place.parent.depth + 1 : 0;
    this.budget = place.budget ?? new TokenBudget(place.parent?.budget, undefined);
    this.done = new Promise((resolve) => (this.settle = resolve));
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** The result once the run has finished. */
  get result(): RunResult | undefined {
    return this.ended;
  }

  /** Ends the run with this result; later calls change nothing. */
  finish(result: RunResult): void {
    if (this.ended) return;
    this.ended = result;
    this.mailWaiters = [];
    this.settle(result);
  }

  cancel(reason: Error = new Error('cancelled')): void {
    this.controller.abort(reason);
  }

  /** Stops this run and its subtree, not its parent: the parent gets its partial result, and who stopped it. */
  stop(by: StopCause): void {
    if (this.signal.aborted || this.ended) return;
    this.stoppedBy = by;
    this.cancel(new Error(`stopped by ${by}`));
  }

  /** Who stopped this run on its own, if anyone did. */
  get stopCause(): StopCause | undefined {
    return this.stoppedBy;
  }

  /** The last few things the run did, newest last (for background_runs' status). */
  get progress(): readonly string[] {
    return this.recent;
  }

  noteProgress(item: string): void {
    this.recent.push(item);
    if (this.recent.length > PROGRESS_ITEMS) this.recent.shift();
  }

  // Children: only the runs this run started are reachable from its tools.

  /** Holds a place under maxActiveChildren while a start is checked; call the result when done. */
  reserveStart(): () => void {
    this.starting++;
    let released = false;
    return () => {
      if (!released) this.starting--;
      released = true;
    };
  }

  /** Children working or about to start: what maxActiveChildren counts. */
  get activeChildren(): number {
    let n = this.starting;
    for (const c of this.children.values()) if (!c.handle.result) n++;
    return n;
  }

  addChild(handle: RunHandle, background: boolean): ChildRecord {
    const record: ChildRecord = { handle, background, delivered: false, awaited: 0 };
    this.children.set(handle.runId, record);
    return record;
  }

  child(runId: string): ChildRecord | undefined {
    return this.children.get(runId);
  }

  allChildren(): ChildRecord[] {
    return [...this.children.values()];
  }

  /**
   * Background children whose result the model has not had yet: still working, or just finished
   * with their announcement on its way. The run waits for them before it ends.
   */
  pendingBackground(): RunHandle[] {
    return this.allChildren().flatMap((c) => (c.background && !c.delivered ? [c.handle] : []));
  }

  // Reports of background children reach the run's model exactly once.

  /** The child's result was returned by a tool: it is delivered, and no announcement will say it again. */
  delivered(record: ChildRecord): void {
    record.delivered = true;
    const key = announcementKey(record.handle);
    this.announced.add(key);
    this.mailbox = this.mailbox.filter((a) => a.key !== key);
  }

  /** Posts the report of a finished child unless its result was, or is about to be, delivered. */
  announce(record: ChildRecord, text: string): void {
    const key = announcementKey(record.handle);
    if (record.delivered || record.awaited > 0 || this.announced.has(key)) return;
    this.announced.add(key);
    record.delivered = true;
    this.post({ key, text });
  }

  get hasMail(): boolean {
    return this.mailbox.length > 0;
  }

  /** Resolves when the next report or message arrives (a run waiting for its children wakes for a steer). */
  nextMail(): Promise<void> {
    return new Promise((resolve) => this.mailWaiters.push(resolve));
  }

  private post(mail: Announcement): void {
    this.mailbox.push(mail);
    for (const wake of this.mailWaiters.splice(0)) wake();
  }

  /**
   * A message for the run's model, seen before its next model call (a turn of its own if the run
   * was about to end). False once its work is done: it can no longer see one.
   */
  message(from: MessageSender, text: string, forModel: string): boolean {
    if (!this.takesMessages) return false;
    this.post({ text: forModel });
    this.onMessage?.(from, text);
    return true;
  }

  /** Told of each message taken (launchRun records it as a run.message event). */
  onMessage: ((from: MessageSender, text: string) => void) | undefined;

  /** Whether a message sent now would still be seen. */
  get takesMessages(): boolean {
    return this.takingMessages && !this.ended && !this.signal.aborted;
  }

  /** The run's work is done (what is left is waiting for children and writing its end): no more messages. */
  closeInbox(): void {
    this.takingMessages = false;
  }

  /** The reports waiting for the model; the mailbox is emptied. */
  takeMail(): Announcement[] {
    const mail = this.mailbox;
    this.mailbox = [];
    return mail;
  }

  /** A returnDirectly subagent's answer ends this run's turn, verbatim. */
  get bail(): { agent: string; output: string } | undefined {
    return this.bailed;
  }

  bailWith(agent: string, output: string): void {
    this.bailed ??= { agent, output };
  }
}

function announcementKey(run: RunHandle): string {
  return `${run.threadId}:${run.runId}`;
}
