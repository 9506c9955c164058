import { z } from 'zod';
import { lazySchema } from './lazySchema';

/**
 * RunEvent: the one event type spoken by the engine, the thread store, the CLI and the webview.
 * Versioned (`v: 1`); `seq` is strictly increasing per thread; `ts` is epoch milliseconds.
 * The webview imports only the types from this file (never zod at runtime).
 */

/**
 * How a run ended. `cancelled`: stopped by a user, a reload or a clean shutdown; `interrupted`: no
 * `run.finished` was found (a crash); `max_steps`: it used all its model calls; `budget`: it used
 * all the tokens it was given.
 */
export const runStatusSchema = z.enum(['ok', 'error', 'cancelled', 'timeout', 'interrupted', 'max_steps', 'budget']);
export type RunStatus = z.infer<typeof runStatusSchema>;

/**
 * Every RunEvent schema, built together on first use (runEventSchema below): only reading a thread
 * file back and importing an archive parse events, so the panel's first request, which loads
 * engine.js, does not build these ~180 zod objects. The types come from them all the same.
 */
function buildRunEventSchemas() {
  const usageSchema = z.object({
    /** Every input token, the cached ones included. */
    inputTokens: z.number().int().nonnegative(),
    outputTokens: z.number().int().nonnegative(),
    totalTokens: z.number().int().nonnegative(),
    /** Of the input, tokens read from the provider's prompt cache (absent: none reported, and in older threads). */
    cacheReadTokens: z.number().int().nonnegative().optional(),
    /** Of the input, tokens written to the provider's prompt cache (Anthropic bills them apart). */
    cacheWriteTokens: z.number().int().nonnegative().optional(),
    /** What the priced tokens cost in US dollars, by subagents.prices; absent when none were priced. */
    costUsd: z.number().nonnegative().optional(),
    /** Tokens of models subagents.prices has no price for: costUsd leaves them out. */
    unpricedTokens: z.number().int().nonnegative().optional(),
  });

  const base = {
    v: z.literal(1),
    threadId: z.string().min(1),
    runId: z.string().min(1),
    seq: z.number().int().nonnegative(),
    ts: z.number(),
  };

  const runStartedSchema = z.object({
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
    /** The model spec the run uses. */
    model: z.string(),
    /**
     * How that model was chosen when it is not simply the spec the profile names: an alias, a list's
     * fallback, or the parent's model because nothing named could be used here (a sentence).
     */
    modelVia: z.string().optional(),
  });

  const textDeltaSchema = z.object({ ...base, kind: z.literal('text.delta'), text: z.string() });

  /** What the run's agent thought on the way (an external agent's agent_thought_chunk), one block at a time: shown folded, never its result. */
  const runReasoningSchema = z.object({ ...base, kind: z.literal('run.reasoning'), text: z.string() });

  const toolStartedSchema = z.object({
    ...base,
    kind: z.literal('tool.started'),
    toolCallId: z.string(),
    tool: z.string(),
    input: z.unknown(),
  });

  const toolFinishedSchema = z.object({
    ...base,
    kind: z.literal('tool.finished'),
    toolCallId: z.string(),
    tool: z.string(),
    output: z.unknown(),
    isError: z.boolean(),
  });

  const approvalDecisionSchema = z.enum(['approved', 'denied']);

  /** An edit's diff as its approval shows it (src/core/changes/preview/changePreview.ts makes it). */
  const changePreviewSchema = z.object({
    path: z.string(),
    /** The file does not exist yet. */
    created: z.boolean().optional(),
    added: z.number().int().nonnegative(),
    removed: z.number().int().nonnegative(),
    /** The first lines of the diff: `hunk` is a hunk's `@@ -a,b +c,d @@` header. */
    lines: z.array(z.object({ kind: z.enum(['add', 'del', 'same', 'hunk']), text: z.string() })),
    /** Diff lines left out past the first ones. */
    omitted: z.number().int().nonnegative(),
    /** Why no lines are shown (a file that may hold secrets, binary content), as the end of a sentence. */
    hidden: z.string().optional(),
  });

  const approvalRequestedSchema = z.object({
    ...base,
    kind: z.literal('approval.requested'),
    approvalId: z.string(),
    toolCallId: z.string(),
    tool: z.string(),
    input: z.unknown(),
    /** Why this needs the user's approval, in a sentence. */
    reason: z.string().optional(),
    /** For an edit: what it would change (absent in older threads, and for other tools). */
    preview: changePreviewSchema.optional(),
  });

  const approvalResolvedSchema = z.object({
    ...base,
    kind: z.literal('approval.resolved'),
    approvalId: z.string(),
    toolCallId: z.string(),
    tool: z.string(),
    input: z.unknown(),
    decision: approvalDecisionSchema,
    /** Denied because no one answered before the run was stopped (Stop) or its window closed or reloaded. */
    cancelled: z.enum(['stopped', 'reloaded']).optional(),
  });

  const runFinishedSchema = z.object({
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

  /** What a warning is about, for hosts that show some kinds their own way. */
  const warningCodeSchema = z.enum(['budget', 'stall', 'mcp', 'sandbox', 'import', 'model', 'tools', 'hooks']);

  const warningSchema = z.object({ ...base, kind: z.literal('warning'), message: z.string(), code: warningCodeSchema.optional() });

  /** A limit in effect for a run, and where its value came from ("the \"x\" profile's maxSteps"). */
  const runLimitSchema = z.object({ value: z.number().int().nonnegative(), source: z.string() });

  /**
   * The configuration a run actually got, written when it starts (so it survives a reload): where its
   * profile came from, its model after aliases, lists and inheritance, its final tools with why the
   * others were taken away, its limits with their sources, and the words it was sent.
   */
  const runConfigSchema = z.object({
    ...base,
    kind: z.literal('run.config'),
    /** "built-in", "user settings", ".vscode/agents/reviewer.md", … */
    profileSource: z.string(),
    /** The agent file the profile came from (absolute), when it came from a file. */
    profilePath: z.string().optional(),
    model: z.object({
      /** As the profile wrote it (a spec, an alias, a list); null when it names none. */
      requested: z.union([z.string(), z.array(z.string())]).nullable(),
      effective: z.string(),
      /** How `effective` was reached, in a sentence. */
      via: z.string(),
    }),
    tools: z.object({
      effective: z.array(z.string()),
      removed: z.array(z.object({ tool: z.string(), reason: z.string() })),
      /** The profile's `tools` and `disallowedTools` as declared, when it has them. */
      declared: z.object({ tools: z.array(z.string()).optional(), disallowedTools: z.array(z.string()).optional() }).optional(),
    }),
    limits: z.object({
      maxSteps: runLimitSchema,
      timeoutMs: runLimitSchema.optional(),
      /** The tokens the run (with everything it starts) may use: its own limit, or less when its parent had less left. */
      maxTokens: runLimitSchema.optional(),
    }),
    /** The system prompt as sent, the project's instruction files included. */
    systemPrompt: z.string(),
    /** The first user message: the task and its context. */
    taskMessage: z.string(),
    /** The project instruction files in the system prompt (AGENTS.md, …). */
    projectInstructions: z.array(z.string()).optional(),
  });

  /** A message to a running run (a steer), from the user in the panel or from its parent's model. */
  const runMessageSchema = z.object({ ...base, kind: z.literal('run.message'), from: z.enum(['user', 'parent']), text: z.string() });

  /** The run's own tokens so far, after each model call: what a budget bar shows while it works. */
  const runUsageSchema = z.object({ ...base, kind: z.literal('run.usage'), usage: usageSchema });

  /** A model call failed for a passing reason (rate limit, server error, lost connection); the run waits and tries again. */
  const runRetryingSchema = z.object({
    ...base,
    kind: z.literal('run.retrying'),
    /** 1 for the first retry of this call. */
    attempt: z.number().int().positive(),
    maxRetries: z.number().int().positive(),
    delayMs: z.number().nonnegative(),
    error: z.string(),
  });

  /** A content hash: sha-256 of the file's bytes, in hex (the name of its snapshot, src/core/changes/attribution/). */
  const contentHash = z.string().regex(/^[0-9a-f]{64}$/);

  /**
   * A file this run changed: by write_file or edit_file, or by one of its commands (found by
   * comparing the workspace before and after it). `null` hashes: the file did not exist before
   * (created) or does not after (deleted). `overlap`: another command ran at the same time, so the
   * change may not be this run's.
   */
  const fileChangedSchema = z.object({
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

  /**
   * A hook ran (src/core/access/hooks/): on which event, which command from where, how it ended and
   * what it decided. `exitCode` null: killed at its timeout, or it could not start (`note` says).
   */
  const hookRanSchema = z.object({
    ...base,
    kind: z.literal('hook.ran'),
    event: z.string(),
    command: z.string(),
    source: z.string(),
    exitCode: z.number().int().nullable(),
    durationMs: z.number().nonnegative(),
    decision: z.enum(['none', 'allow', 'deny', 'ask', 'block', 'stop']),
    /** Its reason (deny, block, ask, stop), or what went wrong with it (a timeout, an exit other than 0 and 2). */
    note: z.string().optional(),
    /** The tool call it was about (PreToolUse, PostToolUse). */
    toolCallId: z.string().optional(),
  });

  /**
   * The ACP session an external agent's run works in (src/core/run/external/): a new one, the
   * thread's earlier one kept alive, or loaded (`session/load`). A later run of the thread reads it
   * to load that session when the process has gone and the agent offers `loadSession`.
   */
  const acpSessionSchema = z.object({
    ...base,
    kind: z.literal('acp.session'),
    sessionId: z.string().min(1),
    via: z.enum(['new', 'loaded', 'kept']),
    /** The agent offers `session/load` (its initialize answer's agentCapabilities.loadSession). */
    loadSession: z.boolean(),
  });

  /**
   * The user reverted this run's changes ("Revert this run's changes", `subagents threads revert`):
   * the files now as they were before the run. Written after the run ended, by the revert itself,
   * so the node reads "reverted" after a reload and a second revert has nothing to undo.
   */
  const runRevertedSchema = z.object({
    ...base,
    kind: z.literal('run.reverted'),
    /** The run's files now as before it (restored by this revert, or found so already). */
    files: z.array(z.string().min(1)).min(1),
    /** Files this revert left as they are, each with why (changed since, no snapshot kept). */
    skipped: z.array(z.object({ path: z.string().min(1), reason: z.string() })).optional(),
  });

  const runEventSchema = z.discriminatedUnion('kind', [
    runStartedSchema,
    textDeltaSchema,
    runReasoningSchema,
    toolStartedSchema,
    toolFinishedSchema,
    approvalRequestedSchema,
    approvalResolvedSchema,
    runFinishedSchema,
    warningSchema,
    runRetryingSchema,
    runConfigSchema,
    runMessageSchema,
    runUsageSchema,
    fileChangedSchema,
    hookRanSchema,
    acpSessionSchema,
    runRevertedSchema,
  ]);

  return { usageSchema, approvalDecisionSchema, runLimitSchema, runConfigSchema, changePreviewSchema, runEventSchema };
}
type RunEventSchemas = ReturnType<typeof buildRunEventSchemas>;

export type Usage = z.infer<RunEventSchemas['usageSchema']>;
export type ApprovalDecision = z.infer<RunEventSchemas['approvalDecisionSchema']>;
export type ChangePreview = z.infer<RunEventSchemas['changePreviewSchema']>;
export type ChangePreviewLine = ChangePreview['lines'][number];
/** A limit in effect for a run, and where its value came from ("the \"x\" profile's maxSteps"). */
export type RunLimit = z.infer<RunEventSchemas['runLimitSchema']>;
export type RunConfig = Omit<z.infer<RunEventSchemas['runConfigSchema']>, 'v' | 'threadId' | 'runId' | 'seq' | 'ts' | 'kind'>;

/** Any RunEvent (a discriminated union on `kind`). */
export const runEventSchema = lazySchema(() => buildRunEventSchemas().runEventSchema);
export type RunEvent = z.infer<RunEventSchemas['runEventSchema']>;
export type RunEventKind = RunEvent['kind'];
export type RunEventOf<K extends RunEventKind> = Extract<RunEvent, { kind: K }>;
/** An event before the store stamps it with `seq`. */
export type UnsequencedRunEvent = RunEvent extends infer E ? (E extends RunEvent ? Omit<E, 'seq'> : never) : never;
