import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contentHash } from '../../src/core/changes/attribution/contentHash';
import { runEventSchema, type RunEvent } from '../../src/shared/events';
import { startCli, type CliResult } from '../unit/cli/cliHarness';

/** A scripted model's turn: what a capable model says and the tool calls it makes in one step. */
export interface Turn {
  match?: string;
  text?: string;
  toolCalls?: { tool: string; input: unknown }[];
}

export interface Session {
  result: CliResult;
  events: RunEvent[];
}

/** The value of a field of the latest result of `tool`, as a model copies an id it was given. */
export const fromResult = (tool: string, field: string) => ({ $fromResult: { tool, field } });

/**
 * One `subagents run` of the real CLI in `root`, its models played from `agents`, with the flags a
 * user passes for real work: `--approval autoEdit` and the test runner allowed.
 */
export async function runSession(
  cli: string,
  root: string,
  agents: Record<string, Turn[]>,
  options: { prompt: string; allow: string[]; env?: NodeJS.ProcessEnv; flags?: string[] },
): Promise<Session> {
  // The script and HOME live outside the repository: git status shows only the agents' work.
  const outside = await mkdtemp(join(tmpdir(), 'field-session-'));
  try {
    const script = join(outside, 'script.json');
    await writeFile(script, JSON.stringify({ agents }));
    const args = [
      'run',
      '--json',
      '--model',
      `scripted:${script}`,
      '--approval',
      'autoEdit',
      ...options.allow.flatMap((p) => ['--allow-command', p]),
      ...(options.flags ?? []),
      options.prompt,
    ];
    const result = await startCli(cli, args, { cwd: root, env: { HOME: join(outside, 'home'), ...options.env } });
    const events = result.stdout
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => runEventSchema.parse(JSON.parse(l)));
    return { result, events };
  } finally {
    await rm(outside, { recursive: true, force: true });
  }
}

type Of<K extends RunEvent['kind']> = Extract<RunEvent, { kind: K }>;
const ofKind = <K extends RunEvent['kind']>(events: readonly RunEvent[], kind: K): Of<K>[] =>
  events.filter((e): e is Of<K> => e.kind === kind);

/** Every tool call with its input and result, in the order they finished. */
export function toolCalls(
  events: readonly RunEvent[],
): { tool: string; agent: string; input: unknown; output: unknown; isError: boolean }[] {
  const started = new Map(ofKind(events, 'tool.started').map((e) => [e.toolCallId, e]));
  const agents = new Map(ofKind(events, 'run.started').map((e) => [e.runId, e.agent]));
  return ofKind(events, 'tool.finished').map((e) => ({
    tool: e.tool,
    agent: agents.get(e.runId) ?? '?',
    input: started.get(e.toolCallId)?.input,
    output: e.output,
    isError: e.isError,
  }));
}

/** The calls that did not do what the model asked: refused, failed, or a command that exited non-zero. */
export function failedCalls(events: readonly RunEvent[]): string[] {
  return toolCalls(events)
    .filter((c) => c.isError || hasError(c.output) || (c.tool === 'run_command' && exitCodeOf(c.output) !== 0))
    .map((c) => `${c.agent} ${c.tool} ${JSON.stringify(c.input)} -> ${JSON.stringify(c.output).slice(0, 1500)}`);
}

const hasError = (output: unknown) => typeof output === 'object' && output !== null && 'error' in output;

/** What the run's `command` printed (the last such call's output). */
export function outputOf(events: readonly RunEvent[], command: string, nth = -1): string {
  const calls = toolCalls(events).filter(
    (c) => c.tool === 'run_command' && (c.input as { command?: string } | undefined)?.command === command,
  );
  const call = calls.at(nth);
  return call ? commandText(call.output) : `(the run never ran ${command})`;
}

export function exitCodeOf(output: unknown): number | undefined {
  if (typeof output !== 'object' || output === null) return undefined;
  const o = output as { exitCode?: unknown };
  return typeof o.exitCode === 'number' ? o.exitCode : undefined;
}

/** The text a command printed, whatever shape its result has. */
export function commandText(output: unknown): string {
  if (typeof output === 'string') return output;
  const printed = (output as { output?: unknown } | null)?.output;
  return typeof printed === 'string' ? printed : JSON.stringify(output);
}

/**
 * Every file change the run reported is on disk: each path's last reported content is what the
 * file holds now, and each edit_file that succeeded left its new text in the file.
 */
export async function missingEdits(root: string, events: readonly RunEvent[]): Promise<string[]> {
  const problems: string[] = [];
  const last = new Map<string, string | null>();
  for (const e of ofKind(events, 'file.changed')) last.set(e.path, e.afterHash);
  for (const [path, hash] of last) {
    const abs = join(root, path);
    const now = existsSync(abs) ? contentHash(await readFile(abs)) : null;
    if (now !== hash) problems.push(`${path}: the run reported content ${hash ?? '(deleted)'}, the disk has ${now ?? '(no file)'}`);
  }
  for (const call of toolCalls(events)) {
    if (call.tool !== 'edit_file' || call.isError) continue;
    const { path, newText } = call.input as { path: string; newText: string };
    const text = existsSync(join(root, path)) ? await readFile(join(root, path), 'utf8') : '';
    if (!text.includes(newText))
      problems.push(`${path}: edit_file reported success, but its new text is not in the file: ${JSON.stringify(newText.slice(0, 80))}`);
  }
  return problems;
}

export const topStatus = (events: readonly RunEvent[]) =>
  ofKind(events, 'run.finished').find((e) => !ofKind(events, 'run.started').some((s) => s.runId === e.runId && s.parentRunId !== null))
    ?.status;
