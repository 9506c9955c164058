import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../../../src/core/ports';
import { FileLockedError, type TakeFileLock } from '../../../../src/core/platform/files/fileLock';
import { ThreadLeases } from '../../../../src/core/storage/threads/threadLeases';

// The leases of one process: counted per thread, one lock between processes each.

/** A lock between processes that refuses while held, and is given back on a later turn of the loop (as a slow disk would). */
function slowLock(): { takeLock: TakeFileLock; takes: () => number } {
  let held = false;
  let takes = 0;
  const takeLock: TakeFileLock = async (path) => {
    if (held) throw new FileLockedError(`${path} is locked by another process.`);
    held = true;
    takes++;
    return async () => {
      await new Promise((resolve) => setImmediate(resolve));
      held = false;
    };
  };
  return { takeLock, takes: () => takes };
}

describe('ThreadLeases', () => {
  it('takes a lease again while it is being given back (a message sent as the answer shows), instead of calling it busy', async () => {
    const lock = slowLock();
    const leases = new ThreadLeases({ logger: silentLogger, takeLock: lock.takeLock });
    await leases.acquire('t1', '/store/t1.jsonl');
    const released = leases.release('t1');
    await leases.acquire('t1', '/store/t1.jsonl');
    await released;
    expect(leases.uses('t1')).toBe(1);
    expect(lock.takes()).toBe(2);
    await leases.release('t1');
    expect(leases.uses('t1')).toBe(0);
  });

  it('still refuses a lease another holder keeps', async () => {
    const lock = slowLock();
    const mine = new ThreadLeases({ logger: silentLogger, takeLock: lock.takeLock });
    const theirs = new ThreadLeases({ logger: silentLogger, takeLock: lock.takeLock });
    await theirs.acquire('t1', '/store/t1.jsonl');
    await expect(mine.acquire('t1', '/store/t1.jsonl')).rejects.toThrow(/working in another window/);
    await theirs.release('t1');
    await mine.acquire('t1', '/store/t1.jsonl');
    await mine.release('t1');
  });
});
