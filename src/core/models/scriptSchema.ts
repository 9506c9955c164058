import { readFile } from 'node:fs/promises';
import { parseJsonc } from '../platform/jsonc/parseJsonc';
import { z } from 'zod';
import { lazySchema } from '../../shared/lazySchema';

/**
 * The JSON script a scripted model plays: for each agent, the turns its model
 * calls take, in order. Strict objects, so a misspelt field ("txt") is an error, not a silent no-op.
 */

/** `/body/flags` is a regular expression; anything else is a plain substring. */
const REGEX_LITERAL = /^\/(.+)\/([dgimsuvy]*)$/s;

/** A compiled matcher for a turn's `match`, or an error message when the regex does not compile. */
export function compileMatch(match: string): ((task: string) => boolean) | string {
  const literal = REGEX_LITERAL.exec(match);
  if (!literal) return (task) => task.includes(match);
  try {
    // The g and y flags make test() stateful; a matcher must answer the same for the same task.
    const re = new RegExp(literal[1]!, literal[2]!.replace(/[gy]/g, ''));
    return (task) => re.test(task);
  } catch (error) {
    return `is not a valid regular expression: ${(error as Error).message}`;
  }
}

const matchSchema = lazySchema(() =>
  z.string().superRefine((value, ctx) => {
    const compiled = compileMatch(value);
    if (typeof compiled === 'string') ctx.addIssue({ code: 'custom', message: compiled });
  }),
);

export const scriptToolCallSchema = lazySchema(() =>
  z.strictObject({
    tool: z.string().min(1),
    /** `{ "$fromResult": { "tool", "field", "index"? } }` anywhere in it stands for a field of an earlier tool result (scriptResultRefs.ts). */
    input: z.unknown(),
  }),
);

export const scriptTurnSchema = lazySchema(() =>
  z.strictObject({
    /** Only a run whose task contains this (or matches this `/regex/flags`) may take the turn. */
    match: matchSchema.optional(),
    /**
     * A catch-all: taken only when no other turn of the agent fits the call, and never used up (a
     * demo's "I am scripted" answer). A script without one keeps the strict "no turn left" error.
     */
    fallback: z.boolean().optional(),
    /** Wait this long before the first part, like a model's time to first token. */
    delayMs: z.number().int().nonnegative().max(3_600_000).optional(),
    text: z.string().optional(),
    /** How many text-delta parts the text streams in (default: about one per four words, at least three). */
    chunks: z.number().int().min(1).max(100_000).optional(),
    toolCalls: z.array(scriptToolCallSchema).optional(),
    usage: z
      .strictObject({
        /** Every input token of the call, the cached ones included (as providers report it). */
        inputTokens: z.number().int().nonnegative(),
        outputTokens: z.number().int().nonnegative(),
        /** Of the input, how many the provider's prompt cache served (Anthropic's cache_read_input_tokens). */
        cacheReadTokens: z.number().int().nonnegative().optional(),
        /** Of the input, how many went into the prompt cache (Anthropic's cache_creation_input_tokens). */
        cacheWriteTokens: z.number().int().nonnegative().optional(),
      })
      .superRefine((u, ctx) => {
        const cached = (u.cacheReadTokens ?? 0) + (u.cacheWriteTokens ?? 0);
        if (cached > u.inputTokens)
          ctx.addIssue({
            code: 'custom',
            message: `cacheReadTokens + cacheWriteTokens (${cached}) is more than inputTokens (${u.inputTokens}); inputTokens counts every input token, the cached ones included`,
          });
      })
      .optional(),
    /** The call fails with a provider error of this HTTP status (429 and 5xx are retryable). */
    error: z
      .strictObject({
        status: z.number().int().min(100).max(599),
        message: z.string(),
        /** Sent as a retry-after-ms header; the SDK waits this long before retrying (default 0: no slow tests). */
        retryAfterMs: z.number().int().nonnegative().max(60_000).optional(),
      })
      .optional(),
  }),
);

export const scriptSchema = lazySchema(() =>
  z.strictObject({
    agents: z.record(z.string().min(1), z.array(scriptTurnSchema)),
  }),
);

export type ScriptTurn = z.infer<typeof scriptTurnSchema>;
export type ScriptToolCall = z.infer<typeof scriptToolCallSchema>;
export type Script = z.infer<typeof scriptSchema>;

/** A script file that cannot be used; the message names the file and what is wrong with it. */
export class ScriptError extends Error {
  override readonly name = 'ScriptError';
}

/** `agents.b[0].error.status` from a zod issue path. */
export function formatIssuePath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out || '(the whole script)';
}

/** Validates a parsed script; `source` names it in the error (a file path or "inline script"). */
export function parseScript(value: unknown, source: string): Script {
  const result = scriptSchema.safeParse(value);
  if (result.success) return result.data;
  const issues = result.error.issues.slice(0, 5).map((i) => `${formatIssuePath(i.path)}: ${i.message}`);
  const more = result.error.issues.length > 5 ? ` (and ${result.error.issues.length - 5} more)` : '';
  throw new ScriptError(
    `Script ${source} does not fit the script format: ${issues.join('; ')}${more}. ` +
      'Expected { "agents": { "<agent>": [ { "match"?, "fallback"?, "delayMs"?, "text"?, "toolCalls"?, "usage"?, "error"? } ] } }.',
  );
}

/** Reads and validates a script file; every failure is a ScriptError naming the file. */
export async function loadScript(path: string): Promise<Script> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'there is no such file' : code === 'EISDIR' ? 'it is a directory' : (error as Error).message;
    throw new ScriptError(
      `Cannot read the script file "${path}": ${why}. Check the path in the model spec (scripted:<path>; a relative path is resolved against the workspace folder).`,
    );
  }
  const parsed = parseJsonc(text);
  if (!parsed.ok) {
    const { message, line, column } = parsed.error;
    throw new ScriptError(
      `The script file "${path}" is not valid JSON at line ${line}, column ${column}: ${message}. Fix the JSON and try again.`,
    );
  }
  const value = parsed.value;
  return parseScript(value, `file "${path}"`);
}
