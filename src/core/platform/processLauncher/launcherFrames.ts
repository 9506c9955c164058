import { z } from 'zod';
import { lazySchema } from '../../../shared/lazySchema';

/**
 * The launcher's protocol. To it, on its stdin: one JSON request a line (LauncherRequest). From it,
 * on its stdout: frames of a 9-byte header (kind: 1 byte; the request's id: 4 bytes; the payload's
 * length: 4 bytes; big-endian) and the payload: a process's output bytes as they came, or JSON
 * (the schemas below) for what happened to it. launcherMain.ts writes them without this module
 * (it runs alone), from the same numbers.
 */
export const FRAME = { spawned: 1, stdout: 2, stderr: 3, exit: 4, close: 5, error: 6 } as const;
export const HEADER_BYTES = 9;

export type LauncherRequest =
  | { op: 'start'; id: number; file: string; args: readonly string[]; cwd: string; env: Record<string, string>; input?: string }
  | { op: 'signal'; id: number; signal: NodeJS.Signals }
  | { op: 'closePipes'; id: number };

// Built when the first command runs, not when engine.js loads (src/shared/lazySchema.ts).
export const spawnedPayload = lazySchema(() => z.object({ pid: z.number().int().positive() }));
export const exitPayload = lazySchema(() => z.object({ code: z.number().int().nullable() }));
export const errorPayload = lazySchema(() => z.object({ message: z.string(), code: z.string().optional() }));

export interface Frame {
  kind: number;
  id: number;
  payload: Buffer;
}

/** Cuts the launcher's stdout into frames, whatever the chunks' sizes. */
export class FrameReader {
  private pending: Buffer[] = [];
  private pendingBytes = 0;

  push(chunk: Buffer): Frame[] {
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    if (this.pendingBytes < HEADER_BYTES) return [];
    let data = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending);
    const frames: Frame[] = [];
    while (data.length >= HEADER_BYTES) {
      const length = data.readUInt32BE(5);
      if (data.length < HEADER_BYTES + length) break;
      frames.push({ kind: data[0]!, id: data.readUInt32BE(1), payload: data.subarray(HEADER_BYTES, HEADER_BYTES + length) });
      data = data.subarray(HEADER_BYTES + length);
    }
    this.pending = data.length ? [data] : [];
    this.pendingBytes = data.length;
    return frames;
  }
}

/** A frame's JSON payload, checked against its schema; undefined when it is not what the protocol says. */
export function framePayload<T>(frame: Frame, schema: z.ZodType<T>): T | undefined {
  try {
    const parsed = schema.safeParse(JSON.parse(frame.payload.toString('utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
