import { z } from 'zod';
import { parseJsonc } from '../../platform/jsonc/parseJsonc';
import { hookEventOf, type HookEvent } from './hookEvents';

/** Where a hook was declared: `user` hooks run as declared; `repository` hooks only once the user agrees. */
export type HookScope = 'user' | 'repository';

/** One command to run on an event, as declared. */
export interface HookDeclaration {
  event: HookEvent;
  /** Claude Code's matcher (a tool name, `A|B`, a regular expression); absent or "" or "*": every one. */
  matcher?: string;
  command: string;
  /** Seconds; default 60 (Claude Code's). */
  timeoutSec: number;
  scope: HookScope;
  /** The file (or setting) it came from, for events and notices. */
  source: string;
}

export const DEFAULT_HOOK_TIMEOUT_SEC = 60;
/** No declared timeout holds a run longer than this. */
const MAX_HOOK_TIMEOUT_SEC = 600;

/** A command hook: Claude Code's `command`, VS Code's per-platform `linux`/`osx`, the Copilot CLI's `bash` and `timeoutSec`. */
const commandSchema = z
  .object({
    type: z.literal('command', { message: 'only "type": "command" hooks are run here' }).optional(),
    command: z.string().min(1).optional(),
    bash: z.string().min(1).optional(),
    linux: z.string().min(1).optional(),
    osx: z.string().min(1).optional(),
    timeout: z.number().positive().optional(),
    timeoutSec: z.number().positive().optional(),
  })
  .loose();
/** Claude Code's matcher group: `{ matcher, hooks: [...] }`. */
const groupSchema = z.object({ matcher: z.string().optional(), hooks: z.array(z.unknown()) }).loose();
export const hooksFileSchema = z.object({ hooks: z.record(z.string(), z.array(z.unknown())).optional() }).loose();

export interface ParsedHooks {
  hooks: HookDeclaration[];
  /** What is wrong, each a sentence naming the place and what to do. */
  problems: string[];
}

/** The hooks of one settings or hooks file's text (JSONC), from `source`. */
export function parseHooksFile(text: string, source: string, scope: HookScope): ParsedHooks {
  const parsed = parseJsonc(text, { jsonc: true });
  if (!parsed.ok) {
    const { message, line, column } = parsed.error;
    return { hooks: [], problems: [`${source}:${line}:${column}: ${message}; its hooks are not run until it is fixed.`] };
  }
  const file = hooksFileSchema.safeParse(parsed.value);
  if (!file.success) return { hooks: [], problems: [`${source}: "hooks" must be an object of event names to lists of hooks.`] };
  return hooksOf(file.data.hooks ?? {}, source, scope);
}

/** The hooks of a `hooks` object (a file's, or the `subagents.hooks` setting's). */
export function hooksOf(value: unknown, source: string, scope: HookScope): ParsedHooks {
  const out: ParsedHooks = { hooks: [], problems: [] };
  const record = z.record(z.string(), z.array(z.unknown())).safeParse(value);
  if (!record.success) return { hooks: [], problems: [`${source}: "hooks" must be an object of event names to lists of hooks.`] };
  for (const [name, entries] of Object.entries(record.data)) {
    const known = hookEventOf(name);
    if ('unknown' in known) {
      out.problems.push(`${source}: ${known.unknown}.`);
      continue;
    }
    entries.forEach((entry, i) => {
      const where = `${source}: hooks.${name}[${i}]`;
      const group = groupSchema.safeParse(entry);
      // VS Code's and the Copilot CLI's files list the commands themselves; Claude Code's, matcher groups.
      const commands = group.success ? group.data.hooks : [entry];
      const matcher = group.success ? group.data.matcher : matcherOf(entry);
      commands.forEach((command, j) => {
        const hook = commandOf(command, group.success ? `${where}.hooks[${j}]` : where, out.problems);
        if (hook) out.hooks.push({ event: known.event, ...(matcher ? { matcher } : {}), ...hook, scope, source });
      });
    });
  }
  return out;
}

function matcherOf(entry: unknown): string | undefined {
  const m = z.object({ matcher: z.string() }).loose().safeParse(entry);
  return m.success ? m.data.matcher : undefined;
}

function commandOf(value: unknown, where: string, problems: string[]): { command: string; timeoutSec: number } | undefined {
  const parsed = commandSchema.safeParse(value);
  if (!parsed.success) {
    problems.push(
      `${where}: ${parsed.error.issues[0]?.message ?? 'not a hook'}; write {"type": "command", "command": "…", "timeout": 30}.`,
    );
    return undefined;
  }
  const h = parsed.data;
  const command = (process.platform === 'darwin' ? h.osx : h.linux) ?? h.command ?? h.bash;
  if (!command) {
    problems.push(`${where}: it has no "command" to run; write {"type": "command", "command": "…"}.`);
    return undefined;
  }
  const timeout = h.timeout ?? h.timeoutSec ?? DEFAULT_HOOK_TIMEOUT_SEC;
  return { command, timeoutSec: Math.min(timeout, MAX_HOOK_TIMEOUT_SEC) };
}
