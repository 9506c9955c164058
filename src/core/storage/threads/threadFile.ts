import { runEventSchema } from '../../../shared/events';
import type { RunEvent } from '../../../shared/events';

/** What a thread's JSONL file holds, and how to go on appending to it safely. */
export interface ParsedThreadFile {
  events: RunEvent[];
  /** Each a full sentence naming the file and the line. */
  warnings: string[];
  /** Bytes of the file that hold whole records; a torn tail starts here. */
  keepBytes: number;
  /** The bytes after `keepBytes` are a torn record to cut off before the next append. */
  torn: boolean;
  /** The last record is whole but lacks its newline: write one before the next append. */
  needsNewline: boolean;
}

const NEWLINE = 0x0a;

const DELTA_KEYS = 7;

/**
 * True when `value` is a text.delta exactly as textDeltaSchema accepts it, with no other keys, so
 * zod would return an equal object. Deltas are nearly all of a thread's lines; checking them by hand
 * halves the validation time of a 100k-event load. Anything else, or anything odd, goes to zod.
 */
export function isPlainTextDelta(value: unknown): value is RunEvent {
  if (typeof value !== 'object' || value === null) return false;
  const e = value as Record<string, unknown>;
  return (
    e.kind === 'text.delta' &&
    e.v === 1 &&
    typeof e.threadId === 'string' &&
    e.threadId.length > 0 &&
    typeof e.runId === 'string' &&
    e.runId.length > 0 &&
    Number.isSafeInteger(e.seq) &&
    (e.seq as number) >= 0 &&
    typeof e.ts === 'number' &&
    Number.isFinite(e.ts) &&
    typeof e.text === 'string' &&
    Object.keys(e).length === DELTA_KEYS
  );
}

function parseLine(line: string): RunEvent | string {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return `it is not JSON (${(error as Error).message})`;
  }
  if (isPlainTextDelta(value)) return value;
  const result = runEventSchema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  return `it is not a RunEvent (${issue ? `${issue.path.join('.') || 'event'}: ${issue.message}` : 'unknown shape'})`;
}

/**
 * Parses a thread file. A bad line in the middle is skipped with a warning naming its line; a bad
 * last line without its newline is a write cut short by a crash: it is dropped, and marked `torn`
 * so the writer cuts it off instead of gluing the next record onto it.
 */
export function parseThreadFile(data: Buffer, label: string): ParsedThreadFile {
  const events: RunEvent[] = [];
  const warnings: string[] = [];
  const lastNewline = data.lastIndexOf(NEWLINE);
  const wholeBytes = lastNewline + 1;
  const text = data.toString('utf8', 0, wholeBytes);
  let lineNo = 0;
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    lineNo++;
    const line = text.slice(start, end);
    start = end + 1;
    if (line.trim() === '') continue;
    const parsed = parseLine(line);
    if (typeof parsed === 'string') warnings.push(`Skipped line ${lineNo} of ${label}: ${parsed}.`);
    else events.push(parsed);
  }
  const result: ParsedThreadFile = { events, warnings, keepBytes: data.length, torn: false, needsNewline: false };
  if (wholeBytes === data.length) return result;
  const tail = data.toString('utf8', wholeBytes).trim();
  if (tail === '') return { ...result, keepBytes: wholeBytes, torn: true };
  const parsed = parseLine(tail);
  if (typeof parsed === 'string') {
    warnings.push(
      `Dropped the torn last line ${lineNo + 1} of ${label} (a write cut short, ${data.length - wholeBytes} bytes): ${parsed}.`,
    );
    return { ...result, keepBytes: wholeBytes, torn: true };
  }
  events.push(parsed);
  return { ...result, needsNewline: true };
}
