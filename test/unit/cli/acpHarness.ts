import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunEvent } from '../../../src/shared/events';

/** The fake ACP agent (built with the SDK's agent side), run by node as a real process. */
export const FAKE_AGENT = join(__dirname, '..', '..', 'fixtures', 'acp', 'fakeAgent.mjs');

/**
 * A workspace whose settings declare the ACP agent "fake" and whose scripted supervisor delegates
 * `task` to it (the task's "MODE:…" picks what the fake does).
 */
export async function acpWorkspace(
  ws: string,
  task: string,
  options: { env?: Record<string, string>; timeoutMs?: number; args?: string[]; maxTokens?: number } = {},
): Promise<void> {
  await mkdir(join(ws, '.vscode'), { recursive: true });
  const fake = {
    description: 'A fake external agent',
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.maxTokens ? { maxTokens: options.maxTokens } : {}),
    acp: { command: process.execPath, args: [FAKE_AGENT, ...(options.args ?? [])], env: options.env ?? {} },
  };
  await writeFile(
    join(ws, '.vscode', 'settings.json'),
    JSON.stringify({ 'subagents.model': 'scripted:script.json', 'subagents.agents': { fake } }),
  );
  await writeFile(
    join(ws, 'script.json'),
    JSON.stringify({
      agents: { supervisor: [{ toolCalls: [{ tool: 'delegate_task', input: { task, agents: ['fake'] } }] }, { text: 'Supervisor done' }] },
    }),
  );
}

/** The RunEvents of a `run --json`, one per line. */
export function eventsOf(stdout: string): RunEvent[] {
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as RunEvent);
}

/** The child's run.finished (the fake's). */
export function childEnd(events: readonly RunEvent[]): Extract<RunEvent, { kind: 'run.finished' }> | undefined {
  const child = events.find((e) => e.kind === 'run.started' && e.agent === 'fake')?.runId;
  return events.find((e): e is Extract<RunEvent, { kind: 'run.finished' }> => e.kind === 'run.finished' && e.runId === child);
}
