import { z } from 'zod';
import { mcpServersFieldSchema } from '../mcp/mcpServerConfig';
import { looksLikeModelRef, type ModelRef } from '../../models/modelAliases';
import { parseModelSpec } from '../../models/modelSpec';
import type { ProfileProblem, TextRange } from './profileProblem';
import { skillNameSchema, type Skill } from '../skills/skill';
import type { PromptCommand } from '../promptFiles/promptCommand';

export type { ProfileProblem } from './profileProblem';

/** A slug: lowercase letters, digits and dashes, starting with a letter. */
export const profileNameSchema = z
  .string()
  .regex(/^[a-z][a-z0-9-]{0,63}$/, 'must be a slug: lowercase letters, digits and dashes, starting with a letter');

/** A spec (checked by the spec parser, with its message) or a name to resolve: `sonnet`, `GPT-4.1`, `inherit`. */
const modelName = z
  .string()
  .trim()
  .min(1)
  .superRefine((text, ctx) => {
    if (/^[\w-]+:/.test(text)) {
      try {
        parseModelSpec(text);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: error instanceof Error ? error.message : String(error) });
      }
    } else if (!looksLikeModelRef(text)) {
      ctx.addIssue({
        code: 'custom',
        message:
          'must be a model spec (anthropic:…, vscode-lm:…/…, openai:…, openai-compatible:…#…), an alias such as "sonnet", or "inherit"',
      });
    }
  });

/** A model spec, an alias, `inherit`, or a list of them tried in order (resolved by chooseModel). */
export const modelRefSchema = z.union([modelName, z.array(modelName).min(1)]);

/** How to start an ACP agent: a program and its arguments; `env` is added to the user's environment (our API keys only if named here). */
export const acpAgentSchema = z.strictObject({
  command: z.string().trim().min(1, 'must name the program to start, e.g. "npx" or "gemini"'),
  args: z.array(z.string()).max(100).default([]),
  env: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name'), z.string()).default({}),
});
export type AcpAgent = z.infer<typeof acpAgentSchema>;

/** A profile as written in settings or an agent file, before merging; every field is checked. */
export const profileInputSchema = z.strictObject({
  description: z.string().trim().min(1, 'must say what this agent is for').max(2000),
  /** How people see it (Copilot's `name:`); the id stays the key. */
  displayName: z
    .string()
    .trim()
    .min(1)
    .max(200)
    // A name is shown in lists, pickers and the terminal: control and bidi characters there only deceive.
    .refine(
      (name) => !/[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/.test(name),
      'must not hold control characters or bidirectional overrides',
    )
    .optional(),
  instructions: z.string().max(100_000).optional(),
  model: modelRefSchema.optional(),
  tools: z.array(z.string().min(1)).optional(),
  disallowedTools: z.array(z.string().min(1)).optional(),
  maxSteps: z.number().int().min(1).max(1000).optional(),
  timeoutMs: z.number().int().min(1).optional(),
  /** Input plus output tokens this agent's run may use, its subagents' included. */
  maxTokens: z.number().int().min(1).optional(),
  returnDirectly: z.boolean().optional(),
  agents: z.array(profileNameSchema).optional(),
  /** MCP servers started only for runs of this profile (Claude Code's `mcpServers`, Copilot's `mcp-servers`). */
  mcpServers: mcpServersFieldSchema.optional(),
  enabled: z.boolean().optional(),
  /** `worktree` (Claude Code's field): the agent works in a git worktree of its own, and its changes wait for the user to apply them. */
  isolation: z.literal('worktree').optional(),
  /** Skills whose instructions join this agent's prompt from its start (Claude Code's `skills`). */
  skills: z.array(skillNameSchema).max(20).optional(),
  /** An external agent spoken to over ACP (src/core/run/external/): this program does the work instead of a model. */
  acp: acpAgentSchema.optional(),
});
export type ProfileInput = z.infer<typeof profileInputSchema>;

/** Where a profile from a file was written: the file, and each field's (and list item's) range. */
export interface ProfileOrigin {
  path: string;
  /** By field ("tools") and by list item ("tools.2"); for problems found after the merge. */
  ranges: Readonly<Record<string, TextRange>>;
}

export interface Profile extends Omit<ProfileInput, 'model'> {
  name: string;
  instructions: string;
  /** The model spec the profile resolved to; absent: the parent's model. */
  model?: string;
  /** The model as written, when it was an alias or a list (for notes, hover and the effective configuration). */
  requestedModel?: ModelRef;
  /** Where the winning definition came from, e.g. "built-in", "user settings", ".vscode/agents/x.md". */
  source: string;
  /** The file it came from, for problems found after the merge. */
  origin?: ProfileOrigin;
  /** Where else this name's external agent (acp) is declared differently: a conflict, so it does not start. */
  acpConflict?: readonly string[];
}

/** A file at the workspace root whose text joins every agent's system prompt. */
export interface ProjectInstruction {
  /** As people name it: "AGENTS.md", ".github/copilot-instructions.md". */
  name: string;
  path: string;
  text: string;
}

export interface ProfileSet {
  /** Enabled profiles by name. */
  profiles: ReadonlyMap<string, Profile>;
  /** Errors, warnings and notes, each with its source and, for files, its place. */
  problems: ProfileProblem[];
  /** AGENTS.md, CLAUDE.md, .github/copilot-instructions.md when present, switched on and trusted. */
  projectInstructions?: readonly ProjectInstruction[];
  /** The Agent Skills of the user's folders and (when trusted) the workspace's: listed to every agent. */
  skills?: readonly Skill[];
  /** Prompt files as slash commands (.github/prompts, .claude/commands, ~/.claude/commands). */
  commands?: readonly PromptCommand[];
}
