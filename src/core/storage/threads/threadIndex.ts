import { randomBytes } from 'node:crypto';
import { readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { runStatusSchema, type RunEvent } from '../../../shared/events';
import { oneLine } from '../../../shared/oneLine';
import { isProcessAlive } from '../../platform/files/fileLock';
import type { ThreadMeta } from './threadStore';

/** An entry as read: one written before the index kept run counts and statuses lacks them. */
export type StoredThreadMeta = Omit<ThreadMeta, 'runCount' | 'status'> & Partial<Pick<ThreadMeta, 'runCount' | 'status'>>;

/** index.json: the metadata of every thread, so lists need not read the thread files. */
export const threadMetaSchema = z.object({
  id: z.string(),
  title: z.string(),
  firstPrompt: z.string().optional(),
  parentThreadId: z.string().nullable(),
  agent: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
  runCount: z.number().int().nonnegative().optional(),
  status: z.union([z.enum(['empty', 'running']), runStatusSchema]).optional(),
  renamedAt: z.number().optional(),
  runIds: z.array(z.string()).optional(),
});

const indexSchema = z.object({ version: z.literal(1), threads: z.array(threadMetaSchema) });

export const INDEX_FILE = 'index.json';

/** The index's threads, or a sentence saying why it cannot be used (then it is rebuilt). */
export async function readIndex(dir: string): Promise<StoredThreadMeta[] | string> {
  let text: string;
  try {
    text = await readFile(join(dir, INDEX_FILE), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'it does not exist';
    return `it cannot be read (${(error as Error).message})`;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return `it is not JSON (${(error as Error).message})`;
  }
  const result = indexSchema.safeParse(value);
  if (!result.success) return `it has the wrong shape (${result.error.issues[0]?.message ?? 'unknown'})`;
  return result.data.threads;
}

/** The temp files of index writes that a process killed mid-write left behind (named after its pid). */
export async function removeStaleIndexTemps(dir: string): Promise<void> {
  const names = await readdir(dir).catch(() => [] as string[]);
  for (const name of names) {
    const pid = /^index\.json\.(\d+)\.[0-9a-f]+\.tmp$/.exec(name)?.[1];
    if (pid && !isProcessAlive(Number(pid))) await rm(join(dir, name), { force: true });
  }
}

/** Writes the index atomically: a temp file in the same directory, then a rename over the old one. */
export async function writeIndex(dir: string, threads: Iterable<ThreadMeta>): Promise<void> {
  const target = join(dir, INDEX_FILE);
  const temp = join(dir, `${INDEX_FILE}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const body = JSON.stringify({ version: 1, threads: [...threads] });
  try {
    await writeFile(temp, body);
    await rename(temp, target);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/** The first line of a task, cut to a length that fits a list. */
export function titleOf(task: string): string {
  return oneLine(task.trim().split('\n', 1)[0]!, 120);
}

/** Metadata rebuilt from a thread's events: its first run.started says who and what. */
export function metaFromEvents(id: string, events: readonly RunEvent[], fallbackTime: number): ThreadMeta {
  const first = events.find((e) => e.kind === 'run.started');
  const start = first?.kind === 'run.started' ? first : undefined;
  const meta: ThreadMeta = {
    id,
    title: start ? titleOf(start.task) : '(untitled)',
    ...(start ? { firstPrompt: titleOf(start.task) } : {}),
    parentThreadId: start?.parentThreadId ?? null,
    agent: start?.agent ?? 'unknown',
    createdAt: events[0]?.ts ?? fallbackTime,
    updatedAt: events.at(-1)?.ts ?? fallbackTime,
    runCount: 0,
    status: 'empty',
    runIds: [...new Set(events.filter((e) => e.kind === 'run.started').map((e) => e.runId))],
  };
  const open = new Set<string>();
  for (const e of events) noteRun(meta, e, open);
  return meta;
}

/**
 * Folds a run's start or end into its thread's entry: the count of runs, and the status (running
 * while any run in `open`, the thread's runs still working, else how the last one ended). Other
 * events leave it as it is; returns whether it changed.
 */
export function noteRun(meta: ThreadMeta, event: RunEvent, open: Set<string>): boolean {
  if (event.kind === 'run.started') {
    if (open.has(event.runId)) return false;
    open.add(event.runId);
    meta.runCount++;
  } else if (event.kind === 'run.finished') {
    open.delete(event.runId);
    if (open.size > 0) return false;
    meta.status = event.status;
    return true;
  } else {
    return false;
  }
  meta.status = 'running';
  return true;
}
