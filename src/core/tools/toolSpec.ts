import type { Schema } from 'ai';
import type { z } from 'zod';

/** What a tool can do; the child filter and the approval gate decide by these. */
export type Capability = 'read' | 'write' | 'exec' | 'network' | 'interactive' | 'install' | 'delegate';

/** What a tool's execution knows about the call it serves. */
export interface ToolCallContext {
  runId: string;
  threadId: string;
  toolCallId: string;
  signal: AbortSignal;
  /**
   * A PreToolUse hook answered "allow": the approval gate may skip asking where only the approval
   * mode would ask (never for a protected file, a secret file, workspace code or an unsandboxed command).
   */
  hookAllowed?: boolean;
}

/**
 * A tool as the engine knows it: independent of the `ai` SDK, so the registry, the child filter
 * and the approval gate can reason about it; `toAiTools` adapts it for a model call.
 */
export interface ToolSpec<Input = unknown> {
  name: string;
  /** Written for the model: what the tool does, when to use it, what it returns. */
  description: string;
  capabilities: readonly Capability[];
  /** zod for our own tools; a JSON schema (`jsonSchema()` of the ai SDK) for tools that bring theirs (MCP). */
  inputSchema: z.ZodType<Input> | Schema<Input>;
  /** Returns the tool's result. Errors a model can act on are returned as values, not thrown. */
  execute(input: Input, context: ToolCallContext): Promise<unknown>;
}

/** A tool with its input type erased, so one list can hold tools of different inputs. */
export type AnyToolSpec = ToolSpec<unknown>;

export function defineTool<Input>(spec: ToolSpec<Input>): AnyToolSpec {
  return {
    ...spec,
    inputSchema: spec.inputSchema as z.ZodType<unknown> | Schema<unknown>,
    // The SDK validates the input against this same schema before it calls execute.
    execute: (input, context) => spec.execute(input as Input, context),
  };
}
