import { z } from 'zod';

/**
 * RunEvent: the one event type spoken by the engine, the thread store, the CLI and the webview.
 * Versioned (`v: 1`); `seq` is strictly increasing per thread; `ts` is epoch milliseconds.
 * The webview imports only the types from this file (never zod at runtime).
 */

export const usageSchema = z.object({
  inputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
  totalTokens: z.number().int().nonnegative(),
});
export type Usage = z.infer<typeof usageSchema>;

/**
 * How a run ended. `cancelled`: stopped by a user, a reload or a clean shutdown; `interrupted`: no
 * `run.finished` was found (a crash); `max_steps`: it used all its model calls; `budget`: it used
 * all the tokens it was given.
 */
export const runStatusSchema = z.enum(['ok', 'error', 'cancelled', 'timeout', 'interrupted', 'max_steps', 'budget']);
export type RunStatus = z.infer<typeof runStatusSchema>;

const base = {
  v: z.literal(1),
  threadId: z.string().min(1),
  runId: z.string().min(1),
  seq: z.number().int().nonnegative(),
  ts: z.number(),
};

export const runStartedSchema = z.object({
  ...base,
  kind: z.literal('run.started'),
  /** null for the top run of a thread. */
  parentRunId: z.string().nullable(),
  /** The parent run's thread, for child runs (each child works in its own child thread). */
  parentThreadId: z.string().nullable().optional(),
  /** The parent's tool call that started this run, for child runs. */
  parentToolCallId: z.string().optional(),
  agent: z.string(),
  /** Agent names from the top of the tree down to this run, this run's agent last. */
  agentPath: z.array(z.string()),
  depth: z.number().int().nonnegative(),
  task: z.string(),
  model: z.string(),
});

export const textDeltaSchema = z.object({ ...base, kind: z.literal('text.delta'), text: z.string() });

export const toolStartedSchema = z.object({
  ...base,
  kind: z.literal('tool.started'),
  toolCallId: z.string(),
  tool: z.string(),
  input: z.unknown(),
});

export const toolFinishedSchema = z.object({
  ...base,
  kind: z.literal('tool.finished'),
  toolCallId: z.string(),
  tool: z.string(),
  output: z.unknown(),
  isError: z.boolean(),
});

export const approvalDecisionSchema = z.enum(['approved', 'denied']);
export type ApprovalDecision = z.infer<typeof approvalDecisionSchema>;

export const approvalRequestedSchema = z.object({
  ...base,
  kind: z.literal('approval.requested'),
  approvalId: z.string(),
  toolCallId: z.string(),
  tool: z.string(),
  input: z.unknown(),
  /** Why this needs the user's approval, in a sentence. */
  reason: z.string().optional(),
});

export const approvalResolvedSchema = z.object({
  ...base,
  kind: z.literal('approval.resolved'),
  approvalId: z.string(),
  toolCallId: z.string(),
  tool: z.string(),
  input: z.unknown(),
  decision: approvalDecisionSchema,
});

export const runFinishedSchema = z.object({
  ...base,
  kind: z.literal('run.finished'),
  status: runStatusSchema,
  output: z.string(),
  error: z.string().optional(),
  bailed: z.boolean().optional(),
  /** The run's own tokens. */
  usage: usageSchema,
  /** The run's tokens plus those of every run under it (absent in older threads). */
  totalUsage: usageSchema.optional(),
  durationMs: z.number().nonnegative(),
});

/** What a warning is about, for hosts that show some kinds their own way (DESIGN 12). */
export const warningCodeSchema = z.enum(['budget', 'stall', 'mcp', 'sandbox', 'import', 'model', 'tools']);

export const warningSchema = z.object({ ...base, kind: z.literal('warning'), message: z.string(), code: warningCodeSchema.optional() });

/** A model call failed for a passing reason (rate limit, server error, lost connection); the run waits and tries again. */
export const runRetryingSchema = z.object({
  ...base,
  kind: z.literal('run.retrying'),
  /** 1 for the first retry of this call. */
  attempt: z.number().int().positive(),
  maxRetries: z.number().int().positive(),
  delayMs: z.number().nonnegative(),
  error: z.string(),
});

/** A content hash: sha-256 of the file's bytes, in hex (the name of its snapshot, src/core/changes/). */
const contentHash = z.string().regex(/^[0-9a-f]{64}$/);

/**
 * A file this run changed: by write_file or edit_file, or by one of its commands (found by
 * comparing the workspace before and after it). `null` hashes: the file did not exist before
 * (created) or does not after (deleted). `overlap`: another command ran at the same time, so the
 * change may not be this run's.
 */
export const fileChangedSchema = z.object({
  ...base,
  kind: z.literal('file.changed'),
  /** Relative to the run's workspace root (its worktree for an isolated run), forward slashes. */
  path: z.string().min(1),
  beforeHash: contentHash.nullable(),
  afterHash: contentHash.nullable(),
  /** Lines added and removed (0 and 0 for a binary file). */
  added: z.number().int().nonnegative(),
  removed: z.number().int().nonnegative(),
  /** The call that made the change: the write, the edit or the command. */
  toolCallId: z.string(),
  attribution: z.enum(['exact', 'overlap']),
  /** Why a side has no stored snapshot (too large, binary over the limit): the change cannot be reverted or shown. */
  note: z.string().optional(),
});

export const runEventSchema = z.discriminatedUnion('kind', [
  runStartedSchema,
  textDeltaSchema,
  toolStartedSchema,
  toolFinishedSchema,
  approvalRequestedSchema,
  approvalResolvedSchema,
  runFinishedSchema,
  warningSchema,
  runRetryingSchema,
  fileChangedSchema,
]);

export type RunEvent = z.infer<typeof runEventSchema>;
export type RunEventKind = RunEvent['kind'];
export type RunEventOf<K extends RunEventKind> = Extract<RunEvent, { kind: K }>;
/** An event before the store stamps it with `seq`. */
export type UnsequencedRunEvent = RunEvent extends infer E ? (E extends RunEvent ? Omit<E, 'seq'> : never) : never;
