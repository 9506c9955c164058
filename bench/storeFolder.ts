import { closeSync, linkSync, mkdirSync, openSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { summarize, type Summary } from './stats';

// What the JSONL column pays for its file operations depends on the folder its store is in more
// than on the store: on the virtual machine this project is built on (ext4 without a journal,
// mounted with `discard`) making a file costs 20 to 600 µs depending on how many files were deleted
// near it lately. A run of 3 children makes 4 thread files and takes and gives back one lease (a
// hard link to the process's owner note, then its unlink), so the benches print these beside their
// tables: a JSONL ratio is read with what the folder cost that day.

/** Microseconds of each operation in the folder (median, min and max), and how they were taken. */
export interface FolderCosts {
  samples: number;
  pauseMs: number;
  /** A new file made (`openSync(…, 'wx')`, as a new thread's) and closed. */
  createFile: Summary;
  /** A hard link made to that file (as a lease's lock, to the owner note). */
  link: Summary;
  /** That link removed (the lease given back). */
  unlink: Summary;
  /** The empty file removed (as a deleted thread's). */
  removeFile: Summary;
}

/**
 * Times each operation `samples` times in `dir`, each after a pause of `pauseMs` (in a run, the
 * store's calls come between stretches of other work, and the first call after a pause is the
 * slow one on this machine), and leaves the folder as it found it.
 */
export async function storeFolderCosts(dir: string, samples = 30, pauseMs = 2): Promise<FolderCosts> {
  mkdirSync(dir, { recursive: true });
  const us: Record<'createFile' | 'link' | 'unlink' | 'removeFile', number[]> = { createFile: [], link: [], unlink: [], removeFile: [] };
  const timed = async (into: number[], operation: () => void): Promise<void> => {
    await delay(pauseMs);
    const start = performance.now();
    operation();
    into.push((performance.now() - start) * 1000);
  };
  const probe = `store-folder-probe-${process.pid}`;
  for (let i = 0; i < samples; i++) {
    const file = join(dir, `${probe}-${i}`);
    const lock = `${file}.lock`;
    await timed(us.createFile, () => closeSync(openSync(file, 'wx')));
    await timed(us.link, () => linkSync(file, lock));
    await timed(us.unlink, () => unlinkSync(lock));
    await timed(us.removeFile, () => unlinkSync(file));
  }
  return {
    samples,
    pauseMs,
    createFile: summarize(us.createFile),
    link: summarize(us.link),
    unlink: summarize(us.unlink),
    removeFile: summarize(us.removeFile),
  };
}

/** One line for a bench's output. */
export function formatFolderCosts(where: string, costs: FolderCosts): string {
  const us = (s: Summary): string => `${s.median.toFixed(0)} µs (${s.min.toFixed(0)}–${s.max.toFixed(0)})`;
  return (
    `The JSONL store's folder (${where}), each operation after a ${costs.pauseMs} ms pause as in a run, medians (min–max) of ${costs.samples}: ` +
    `make a file ${us(costs.createFile)}, link a lease to it ${us(costs.link)}, unlink the lease ${us(costs.unlink)}, remove the empty file ${us(costs.removeFile)}`
  );
}
