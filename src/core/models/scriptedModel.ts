import { APICallError } from '@ai-sdk/provider';
import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4FinishReason,
  LanguageModelV4StreamPart,
  LanguageModelV4Usage,
} from '@ai-sdk/provider';
import { systemDelay, type Delay } from '../ports';
import type { ModelCaller } from './modelResolver';
import { compileMatch } from './scriptSchema';
import type { Script, ScriptTurn } from './scriptSchema';
import { resolveResultRefs } from './scriptResultRefs';

/**
 * The scripted model: a real AI SDK model (LanguageModelV4) that plays a JSON script, so tests,
 * demos and users' offline profile checks run the same code path as a remote model.
 */

/** No turn of the script fits a model call. Not an APICallError, so the SDK never retries it. */
export class ScriptExhaustedError extends Error {
  override readonly name = 'ScriptExhaustedError';
}

interface PickedTurn {
  turn: ScriptTurn;
  index: number;
}

/**
 * Holds one script and which of its turns are used. One player serves one top-level request:
 * every run of that request (supervisor and subagents) takes turns from the same player, so a
 * turn is played once however many runs of an agent there are.
 */
export class ScriptPlayer {
  private readonly used = new Map<string, Set<number>>();
  private readonly matchers = new Map<string, (task: string) => boolean>();

  readonly delay: Delay;

  /** @param name what the model id shows, e.g. the script's path. */
  constructor(
    readonly script: Script,
    readonly name = 'script',
    options: { delay?: Delay } = {},
  ) {
    this.delay = options.delay ?? systemDelay;
  }

  /** A model for one run of `caller.agent` working on `caller.task`. */
  modelFor(caller: ModelCaller): LanguageModelV4 {
    return new ScriptedModel(this, caller);
  }

  /**
   * Takes the next unused turn of the agent that fits the task; else the first fallback turn that
   * fits (never used up); else throws ScriptExhaustedError.
   */
  take(caller: ModelCaller): PickedTurn {
    const turns = this.script.agents[caller.agent] ?? [];
    let used = this.used.get(caller.agent);
    if (!used) this.used.set(caller.agent, (used = new Set()));
    for (let index = 0; index < turns.length; index++) {
      const turn = turns[index]!;
      if (turn.fallback || used.has(index) || !this.fits(turn, caller.task)) continue;
      used.add(index);
      return { turn, index };
    }
    const fallback = turns.findIndex((turn) => turn.fallback && this.fits(turn, caller.task));
    if (fallback >= 0) return { turn: turns[fallback]!, index: fallback };
    const task = caller.task.length > 200 ? `${caller.task.slice(0, 200)}…` : caller.task;
    throw new ScriptExhaustedError(
      `scripted model: no turn left for agent "${caller.agent}" matching task "${task}" ` +
        `(the script has ${turns.length} turns for "${caller.agent}", ${used.size} used). ` +
        `Add a turn for "${caller.agent}" to ${this.name}.`,
    );
  }

  private fits(turn: ScriptTurn, task: string): boolean {
    if (turn.match === undefined) return true;
    let matcher = this.matchers.get(turn.match);
    if (!matcher) {
      const compiled = compileMatch(turn.match);
      // The schema already refused bad regexes; a hand-built script falls back to a substring.
      matcher = typeof compiled === 'string' ? (t: string) => t.includes(turn.match!) : compiled;
      this.matchers.set(turn.match, matcher);
    }
    return matcher(task);
  }
}

class ScriptedModel implements LanguageModelV4 {
  readonly specificationVersion = 'v4';
  readonly provider = 'scripted';
  readonly modelId: string;
  readonly supportedUrls = {};

  constructor(
    private readonly player: ScriptPlayer,
    private readonly caller: ModelCaller,
  ) {
    this.modelId = `${player.name}#${caller.agent}`;
  }

  async doStream(options: LanguageModelV4CallOptions) {
    const { turn, content, finishReason, usage } = await this.play(options);
    const parts: LanguageModelV4StreamPart[] = [{ type: 'stream-start', warnings: [] }];
    if (turn.text) {
      parts.push({ type: 'text-start', id: 'text' });
      for (const delta of splitText(turn.text, turn.chunks)) parts.push({ type: 'text-delta', id: 'text', delta });
      parts.push({ type: 'text-end', id: 'text' });
    }
    for (const c of content) if (c.type === 'tool-call') parts.push(c);
    parts.push({ type: 'finish', finishReason, usage });
    // Everything is known at once: enqueue it all, the consumer reads at its own pace.
    const stream = new ReadableStream<LanguageModelV4StreamPart>({
      start(controller) {
        for (const part of parts) controller.enqueue(part);
        controller.close();
      },
    });
    return { stream };
  }

  async doGenerate(options: LanguageModelV4CallOptions) {
    const { content, finishReason, usage } = await this.play(options);
    return { content, finishReason, usage, warnings: [] };
  }

  /** Takes a turn, waits its delay, throws its error, or returns what it says. */
  private async play(options: LanguageModelV4CallOptions) {
    options.abortSignal?.throwIfAborted();
    const { turn, index } = this.player.take(this.caller);
    if (turn.delayMs) await this.player.delay(turn.delayMs, options.abortSignal);
    if (turn.error) {
      const status = turn.error.status;
      throw new APICallError({
        message: turn.error.message,
        url: `scripted://${this.player.name}`,
        requestBodyValues: { agent: this.caller.agent, task: this.caller.task, turn: index },
        statusCode: status,
        responseHeaders: { 'retry-after-ms': String(turn.error.retryAfterMs ?? 0) },
        isRetryable: status === 429 || status >= 500,
      });
    }
    const content: LanguageModelV4Content[] = [];
    if (turn.text) content.push({ type: 'text', text: turn.text });
    const calls = turn.toolCalls ?? [];
    // Deterministic ids, yet distinct between requests: a later request of the same thread sees a
    // longer prompt, so its hash differs and a child thread keyed by the call id is not reused.
    const promptHash = calls.length ? hash(JSON.stringify(options.prompt)) : '';
    calls.forEach((call, i) => {
      content.push({
        type: 'tool-call',
        toolCallId: `call_${this.caller.agent}_${index}_${i}_${promptHash}`,
        toolName: call.tool,
        input: JSON.stringify(resolveResultRefs(call.input ?? {}, options.prompt, this.caller.agent, refused)),
      });
    });
    const finishReason: LanguageModelV4FinishReason = calls.length
      ? { unified: 'tool-calls', raw: 'tool_calls' }
      : { unified: 'stop', raw: 'stop' };
    return { turn, content, finishReason, usage: usageOf(turn, options, content) };
  }
}

/** A script that refers to a result its conversation does not have: not retried, as no turn left is not. */
function refused(message: string): never {
  throw new ScriptExhaustedError(message);
}

/** Splits text at word boundaries into `chunks` parts (default: ~4 words each, at least 3 parts). */
export function splitText(text: string, chunks?: number): string[] {
  const words = text.match(/\s*\S+\s*/g) ?? [text];
  const count = Math.max(1, Math.min(words.length, chunks ?? Math.max(3, Math.ceil(words.length / 4))));
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const from = Math.floor((i * words.length) / count);
    const to = Math.floor(((i + 1) * words.length) / count);
    out.push(words.slice(from, to).join(''));
  }
  return out;
}

/** The turn's usage, or a rough count (four characters a token) when the script gives none. */
function usageOf(turn: ScriptTurn, options: LanguageModelV4CallOptions, content: LanguageModelV4Content[]): LanguageModelV4Usage {
  let input = turn.usage?.inputTokens;
  let output = turn.usage?.outputTokens;
  if (input === undefined) input = Math.ceil(promptLength(options) / 4);
  if (output === undefined) {
    let chars = 0;
    for (const c of content) chars += c.type === 'text' ? c.text.length : c.type === 'tool-call' ? c.input.length : 0;
    output = Math.ceil(chars / 4);
  }
  // The shape a provider reports cached input in: the total counts them, noCache does not.
  const cacheRead = turn.usage?.cacheReadTokens;
  const cacheWrite = turn.usage?.cacheWriteTokens;
  return {
    inputTokens: { total: input, noCache: input - (cacheRead ?? 0) - (cacheWrite ?? 0), cacheRead, cacheWrite },
    outputTokens: { total: output, text: output, reasoning: undefined },
  };
}

function promptLength(options: LanguageModelV4CallOptions): number {
  let chars = 0;
  for (const message of options.prompt) {
    if (typeof message.content === 'string') chars += message.content.length;
    else for (const part of message.content) chars += part.type === 'text' ? part.text.length : JSON.stringify(part).length;
  }
  return chars;
}

/** FNV-1a, 32 bits, as 8 hex digits: short, stable ids, not security. */
function hash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}
