import { z } from 'zod';
import { modelSpecSchema } from '../../models/modelSpec';
import { modelPricesSchema } from '../prices/modelPrices';

export const supervisorSettingsSchema = z.object({
  /** Added to the supervisor's system prompt after our delegation guidelines. */
  guidelines: z.string().optional(),
  /** Replaces the supervisor's whole system prompt. */
  systemPrompt: z.string().optional(),
  /** Whom the supervisor may delegate to; absent or empty means every enabled profile. */
  agents: z.array(z.string()).optional(),
});
export type SupervisorSettings = z.infer<typeof supervisorSettingsSchema>;

/** When agents must ask before changing files or running commands. */
export const approvalModeSchema = z.enum(['ask', 'autoEdit', 'trust']);
export type ApprovalMode = z.infer<typeof approvalModeSchema>;

/** `subagents.modelAliases`: a name (`sonnet`, `fast`) to a spec, or to specs tried in order. */
export const modelAliasesSchema = z.record(z.string().trim().min(1), z.union([modelSpecSchema, z.array(modelSpecSchema).min(1)]));

/** Which user-level agent folders are read (`subagents.userAgentFolders`). */
export const userAgentFoldersSchema = z.object({
  /** ~/.claude/agents: Claude Code's user agents. */
  claude: z.boolean().default(true),
  /** ~/.copilot/agents: the Copilot CLI's user agents. */
  copilot: z.boolean().default(true),
});

/** Which instruction files at the workspace root join every agent's system prompt (`subagents.projectInstructions`). */
export const projectInstructionsSchema = z.object({
  'AGENTS.md': z.boolean().default(true),
  'CLAUDE.md': z.boolean().default(true),
  '.github/copilot-instructions.md': z.boolean().default(true),
});

/** `subagents.budget`: what one request (a user message and every run it sets off) may use. */
export const requestBudgetSchema = z.strictObject({
  /** Input plus output tokens of the supervisor and every descendant together. */
  maxTokens: z.number().int().min(1).optional(),
  /** Wall time of the whole request. */
  timeoutMs: z.number().int().min(1).optional(),
});
export type RequestBudget = z.infer<typeof requestBudgetSchema>;

export type UserAgentFolderSettings = z.infer<typeof userAgentFoldersSchema>;
export type ProjectInstructionSwitches = z.infer<typeof projectInstructionsSchema>;
/** Whether agents' commands run in the OS sandbox: auto = where the platform has one; on = never without it. */
export const sandboxModeSchema = z.enum(['auto', 'on', 'off']);
export type SandboxMode = z.infer<typeof sandboxModeSchema>;

/** A host name a sandboxed command may reach (`registry.npmjs.org`, `*.github.com`, `localhost:3000`). */
const hostPatternSchema = z
  .string()
  .trim()
  .min(1)
  .regex(/^(\*\.)?[A-Za-z0-9.-]+(:\d+)?$|^\[[0-9a-fA-F:]+\](:\d+)?$/, 'a host name, *.domain, or either with :port');

/**
 * Where traces go (`subagents.telemetry.otlpEndpoint`): an OTLP/HTTP collector, http or https. A
 * bare origin gets the standard path `/v1/traces`; '' (the default) records no traces at all.
 */
export const otlpEndpointSchema = z.union([
  z.literal(''),
  z
    .string()
    .trim()
    .refine(
      (value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol),
      'an http or https URL, such as http://localhost:4318',
    ),
]);

/** `subagents.threads.retention`: how many top-level threads to keep, and for how long; absent fields keep all. */
export const threadRetentionSchema = z
  .object({
    /** Keep at most this many top-level threads (each with its child threads); the oldest go first. */
    maxThreads: z.number().int().min(1).optional(),
    /** Delete top-level threads not updated for this many days. */
    maxAgeDays: z.number().positive().optional(),
  })
  .strict();
export type ThreadRetention = z.infer<typeof threadRetentionSchema>;

/** The settings the engine reads at the start of every request. */
export const engineSettingsSchema = z.object({
  /** '' until the user picks one (the panel then offers what is available). */
  model: z.union([z.literal(''), modelSpecSchema]).default(''),
  maxDepth: z.number().int().min(0).max(5).default(1),
  maxConcurrency: z.number().int().min(1).max(32).default(4),
  /** Children of one run that may be working at once (background ones included). */
  maxActiveChildren: z.number().int().min(1).max(64).default(8),
  supervisor: supervisorSettingsSchema.default({}),
  approval: approvalModeSchema.default('ask'),
  /** Command prefixes that run unasked in ask and autoEdit modes, each part of a line judged alone. */
  autoApproveCommands: z.array(z.string().trim().min(1)).default([]),
  modelAliases: modelAliasesSchema.default({}),
  userAgentFolders: userAgentFoldersSchema.default({ claude: true, copilot: true }),
  projectInstructions: projectInstructionsSchema.default({ 'AGENTS.md': true, 'CLAUDE.md': true, '.github/copilot-instructions.md': true }),
  /**
   * `subagents.sandbox.mode`, not `subagents.sandbox`: VS Code's settings are a tree, and a value at
   * `sandbox` would hide the `sandbox.allowedHosts` beside it.
   */
  'sandbox.mode': sandboxModeSchema.default('auto'),
  /** Hosts a sandboxed command may reach; none by default (no network). */
  'sandbox.allowedHosts': z.array(hostPatternSchema).default([]),
  /**
   * The user's own hooks (user settings, ~/.claude/settings.json) run outside the sandbox, as Claude
   * Code runs them. Off by default: they run in the workspace, and the tools they start (npx, eslint,
   * python -m, make) load code an agent can write. Never a repository hook's (hookLaunch.ts).
   */
  'sandbox.userHooksOutside': z.boolean().default(false),
  /** More environment variables (names, `*` and `?` wildcards) that commands never see, beyond `*_API_KEY` and `SUBAGENTS_*`. */
  'commandEnv.exclude': z
    .array(
      z
        .string()
        .trim()
        .min(1)
        .regex(/^[A-Za-z0-9_*?]+$/, 'a variable name, with * and ? wildcards'),
    )
    .default([]),
  /** Hosts web_fetch reaches without asking. User settings (or --trusted-domain) only, like the other settings that raise trust. */
  trustedDomains: z.array(hostPatternSchema).default([]),
  budget: requestBudgetSchema.default({}),
  /** Model specs or globs (`*` matches anything) every run's model must match; empty: any model. */
  allowedModels: z.array(z.string().trim().min(1)).default([]),
  /** A run whose open model call has been silent this long gets a warning (code `stall`). */
  stallWarningMs: z.number().int().min(1000).default(120_000),
  /** A model stream that yields nothing for this long is aborted and tried once more. */
  modelIdleTimeoutMs: z.number().int().min(1000).default(300_000),
  /** Threads pruned at start-up and after each turn (retention/); the default keeps every thread. */
  'threads.retention': threadRetentionSchema.default({}),
  /** How much the snapshots behind reverts and diffs may take (MB); past it, the oldest threads' go first. */
  'snapshots.maxMB': z.number().int().min(1).max(1_000_000).default(200),
  /** Anthropic calls mark the tools, the system prompt and the conversation so far for the provider's prompt cache. */
  promptCaching: z.boolean().default(true),
  /** Dollars per million tokens by model spec or glob: turns each run's tokens into its cost. Empty: tokens only. */
  prices: modelPricesSchema.default({}),
  /** An OTLP/HTTP collector every run is traced to (user settings or --otlp-endpoint only: a project must not send data away). */
  'telemetry.otlpEndpoint': otlpEndpointSchema.default(''),
  /** Traces carry the prompts, the outputs and the tools' arguments and results; off, only names, tokens and status. */
  'telemetry.recordContent': z.boolean().default(false),
});
export type EngineSettings = z.infer<typeof engineSettingsSchema>;

export const DEFAULT_SETTINGS: EngineSettings = engineSettingsSchema.parse({});

/** The name of the top-level agent of every thread, in events and in scripted models. */
export const SUPERVISOR = 'supervisor';

/** Model calls per run when the profile does not say. */
export const DEFAULT_MAX_STEPS = 25;
