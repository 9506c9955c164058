import { z } from 'zod';
import type { RunEvent, RunStatus } from './events';
import { lazyUnion, type LazyUnionOutput } from './lazyUnion';
import type { BrokenAgentView } from './brokenAgent';

/**
 * Messages between the extension host and the panel webview, one union per direction.
 * The host validates every inbound message (WebviewToHost) with zod and drops what fails;
 * the webview trusts the host and imports only the types from here.
 */

const MAX_PROMPT_CHARS = 100_000;
const id = () => z.string().min(1).max(200);

/** Where a problem is fixed, as the webview may ask to open it: a file at a line, or a setting. */
const problemLocation = () =>
  z
    .strictObject({
      path: z.string().min(1).max(4096).optional(),
      line: z.number().int().min(1).max(10_000_000).optional(),
      column: z.number().int().min(1).max(10_000_000).optional(),
      setting: z
        .string()
        .regex(/^subagents(\.[A-Za-z][A-Za-z0-9_-]*)+$/, 'must be a subagents.* setting')
        .optional(),
    })
    .refine((l) => l.path !== undefined || l.setting !== undefined, 'names neither a file nor a setting');
export type ProblemLocation = z.infer<ReturnType<typeof problemLocation>>;

// By kind (`type`, added by lazyUnion), each built when the first of its kind comes: opening the panel sends one or two kinds.
const webviewToHostMembers = {
  /** The webview has loaded and wants the current state. */
  ready: () => z.object({}),
  /**
   * The user sent a prompt in the current thread (or a new one when there is none). While the
   * thread works it is queued and becomes the next turn once the thread is quiet (PromptQueue).
   */
  send: () =>
    z.object({
      text: z.string().trim().min(1).max(MAX_PROMPT_CHARS),
      /** `@agent` at the start of a prompt: that profile answers this turn instead of the supervisor. */
      agent: z.string().min(1).max(64).optional(),
      /** Context attached to this prompt, by the ids the host gave in `attachments`. */
      attachments: z.array(id()).max(20).optional(),
    }),
  /** Take a queued prompt of the current thread out of the queue, by the id the host gave it. */
  unqueue: () => z.object({ id: id() }),
  /** Stop every run of the current thread. */
  cancel: () => z.object({}),
  newThread: () => z.object({}),
  openThread: () => z.object({ threadId: id() }),
  resolveApproval: () => z.object({ approvalId: id(), decision: z.enum(['approved', 'denied']) }),
  /** No model is set: what could the user pick? The host answers with `modelChoices`. */
  listModels: () => z.object({}),
  /** The user picked one of the offered choices (by its id, never a spec: the host decides what is written). */
  chooseModel: () => z.object({ id: id() }),
  /**
   * Open where a problem is fixed (a ConfigProblem's location). The host opens only a file in the
   * workspace or a settings file, and only `subagents.*` settings.
   */
  openLocation: () => z.object({ location: problemLocation() }),
  /** Attach context to the next prompt: a workspace file (`#file`, picked by the host when no path), or the editor's selection. */
  attach: () => z.object({ kind: z.enum(['file', 'selection']), path: z.string().min(1).max(4096).optional() }),
  /** Take an attachment off the next prompt. */
  detach: () => z.object({ id: id() }),
  /** Insert a code block's text at the cursor of the active editor. */
  insertAtCursor: () => z.object({ text: z.string().max(MAX_PROMPT_CHARS) }),
  renameThread: () => z.object({ threadId: id(), title: z.string().trim().min(1).max(200) }),
  /** The host asks the user to confirm before it deletes. */
  deleteThread: () => z.object({ threadId: id() }),
  /** Approve a command once and add its first words to the user setting subagents.autoApproveCommands (after a confirmation). */
  alwaysAllow: () => z.object({ approvalId: id(), prefix: z.string().trim().min(1).max(200) }),
  /** Stop one run and its subtree; its parent goes on (issue "Beyond the anchors"). */
  cancelRun: () => z.object({ runId: id() }),
  /** A message to a running child, seen before its next model call. */
  steerRun: () => z.object({ runId: id(), text: z.string().trim().min(1).max(MAX_PROMPT_CHARS) }),
  /** Open the diff of one file a run changed (its node's list): before from the snapshot, after as the run left it. */
  openChangeDiff: () => z.object({ threadId: id(), runId: id(), path: z.string().min(1).max(4096) }),
  /** Open a waiting edit's proposed change in the diff editor (the file as it is, and as the edit would leave it). */
  openApprovalDiff: () => z.object({ approvalId: id() }),
  /** Revert this run's changes: each file only while it is still what the run left (the host asks about uncertain ones). */
  revertRun: () => z.object({ threadId: id(), runId: id() }),
  /** A worktree run's changes: merge them into the workspace (3-way), or throw them away (after a confirmation). */
  applyWorktree: () => z.object({ runId: id() }),
  discardWorktree: () => z.object({ runId: id() }),
};
export const webviewToHostSchema = lazyUnion('type', webviewToHostMembers);
export type WebviewToHost = LazyUnionOutput<'type', typeof webviewToHostMembers>;

export interface ThreadSummary {
  id: string;
  title: string;
  createdAt?: number;
  updatedAt: number;
  /** The state of its last top-level run: `running` while any run of it works. */
  status?: 'running' | RunStatus | 'empty';
  /** Top-level runs (turns) so far. */
  runCount?: number;
}

/** Context attached to the next prompt, as the panel shows it (a chip). */
export interface AttachmentView {
  id: string;
  kind: 'file' | 'selection';
  /** `src/invoice.ts`, `src/invoice.ts:10-24`. */
  label: string;
}

/**
 * Something about the configuration the user should know or fix: a bad setting, a broken or
 * partly imported agent file. One shape for the panel, the log, the CLI and the editor's Problems.
 */
export interface ConfigProblem {
  /** A plain sentence: what is wrong and what to do about it. */
  message: string;
  /** `error`: something does not work; `warning`: works, but not as written; `information`: a note. */
  severity: 'error' | 'warning' | 'information';
  /** Where to fix it: a file (absolute) at a 1-based line and column, or a setting by its full name. */
  location?: ProblemLocation;
  /** What kind of problem, a stable name ("no-description", "tool-later"): for filters, counts and quick fixes. */
  code?: string;
}

export interface PanelConfig {
  /** The model spec in use, or '' when none is configured. */
  model: string;
  /** `displayName` is how people see it (a Copilot agent's `name:`); the supervisor uses `name`. */
  agents: { name: string; description: string; displayName?: string }[];
  /** Agents whose file failed to load: `@name` says which file and why instead of "no such agent". */
  brokenAgents?: BrokenAgentView[];
  /** Prompt files as slash commands (`/name args`, expanded by the engine): completed after `/` in the prompt box. */
  commands?: { name: string; description: string; argumentHint?: string }[];
  /** What the user should fix or know (a bad profile, a field an import could not honour). */
  problems: ConfigProblem[];
  trusted: boolean;
}

/** A prompt waiting for its thread to be quiet, as the panel shows it (a chip above the prompt box). */
export interface QueuedPromptView {
  id: string;
  text: string;
}

/** A model the user can pick on first run. */
export interface ModelChoice {
  id: string;
  /** editor: vscode.lm; local: a model server on this machine; key: a provider that needs an API key. */
  group: 'editor' | 'local' | 'key' | 'demo';
  label: string;
  detail: string;
}

export type HostToWebview =
  /** The whole state: sent on `ready` and when the current thread changes. */
  | {
      type: 'state';
      threadId: string | null;
      events: RunEvent[];
      threads: ThreadSummary[];
      config: PanelConfig;
      busy: boolean;
      queued: QueuedPromptView[];
    }
  /** New events of the current thread, batched (at most one message per frame). */
  | { type: 'events'; threadId: string; events: RunEvent[] }
  | { type: 'threads'; threads: ThreadSummary[] }
  | { type: 'config'; config: PanelConfig }
  | { type: 'busy'; busy: boolean }
  /** The current thread's queued prompts changed (one was added, removed or sent). */
  | { type: 'queued'; threadId: string; queued: QueuedPromptView[] }
  /** What the user may pick as a model, and what was looked for and not found, in sentences. */
  | { type: 'modelChoices'; choices: ModelChoice[]; notes: string[] }
  /**
   * Something the user should know that is not part of a run: a bad message, a failed load. With a
   * threadId it is about that conversation only, and goes away when another one is shown.
   */
  | { type: 'notice'; level: 'info' | 'error'; message: string; threadId?: string }
  /** The context attached to the next prompt changed. */
  | { type: 'attachments'; items: AttachmentView[] }
  /** Put the keyboard focus in the prompt box ("Focus on Chat View", a command). */
  | { type: 'focusPrompt' }
  /** The worktree runs whose changes wait for Apply or Discard (all of them; the panel shows those in its tree). */
  | { type: 'worktrees'; items: PendingWorktreeView[] }
  /** Threads whose runs can no longer be reverted (the size cap took their snapshots): thread id to why. */
  | { type: 'revertUnavailable'; threads: Record<string, string> };

/** A worktree run that ended with changes, waiting on its node for Apply to workspace or Discard. */
export interface PendingWorktreeView {
  runId: string;
  branch: string;
  files: number;
  added: number;
  removed: number;
}
