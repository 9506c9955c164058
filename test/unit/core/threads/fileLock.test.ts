import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FileLockedError, leaseHeld, takeFileLock } from '../../../../src/core/platform/files/fileLock';

// The lock between processes behind thread leases and index writes: `<file>.lock`, a hard link to
// the holder's owner note, which names its host, pid and a token of that process.

const host = encodeURIComponent(hostname());
let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'file-lock-'));
  file = join(dir, 't.jsonl');
  return () => rm(dir, { recursive: true, force: true });
});
afterEach(() => {
  vi.useRealTimers();
});

const options = { staleMs: 2000, onCompromised: () => undefined };

/** A real process of this machine, alive until `end()`; its pid. */
async function liveProcess(): Promise<{ pid: number; end: () => Promise<void> }> {
  const child = spawn(process.execPath, ['-e', 'process.stdin.resume()'], { stdio: ['pipe', 'ignore', 'ignore'] });
  await new Promise((resolve) => child.once('spawn', resolve));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return {
    pid: child.pid!,
    end: async () => {
      child.stdin.end();
      await exited;
    },
  };
}

describe('takeFileLock', () => {
  it("is a link to this process's note: the lock names its holder, and goes when given back", async () => {
    const release = await takeFileLock(file, options);
    const text = await readFile(`${file}.lock`, 'utf8');
    expect(text).toMatch(new RegExp(`^${host}@${process.pid}#[0-9a-f]+$`));
    const note = join(dir, '.owners', `${host}@${process.pid}`);
    expect(await readFile(note, 'utf8')).toBe(text);
    expect((await stat(`${file}.lock`)).ino).toBe((await stat(note)).ino);
    // Held here: a second taker in this process is refused like another process's.
    await expect(takeFileLock(file, options)).rejects.toThrow(FileLockedError);
    expect(await leaseHeld(file, 2000)).toBe(true);
    await release();
    await expect(stat(`${file}.lock`)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await leaseHeld(file, 2000)).toBe(false);
  });

  it('refuses a lock a live process of this machine holds, and takes it at once when that process has ended', async () => {
    const other = await liveProcess();
    await writeFile(`${file}.lock`, `${host}@${other.pid}#abcdef12`);
    await expect(takeFileLock(file, options)).rejects.toThrow(/locked by another process/);
    expect(await leaseHeld(file, 2000)).toBe(true);
    await other.end();
    expect(await leaseHeld(file, 2000)).toBe(false);
    const release = await takeFileLock(file, options);
    await release();
  });

  it('takes at once a lock left by an ended process that had this pid (a CLI run again in a container)', async () => {
    await writeFile(`${file}.lock`, `${host}@${process.pid}#00000000`);
    expect(await leaseHeld(file, 2000)).toBe(false);
    const release = await takeFileLock(file, options);
    expect(await readFile(`${file}.lock`, 'utf8')).not.toContain('#00000000');
    await release();
  });

  it("waits out the stale time of another machine's lock, which it cannot ask about", async () => {
    await writeFile(`${file}.lock`, 'other-machine@1#abcdef12');
    await expect(takeFileLock(file, options)).rejects.toThrow(FileLockedError);
    const old = (Date.now() - 3000) / 1000;
    await utimes(`${file}.lock`, old, old);
    const release = await takeFileLock(file, options);
    await release();
  });

  it("respects an earlier version's lock folder while its holder refreshes it, and breaks it when stale", async () => {
    await mkdir(`${file}.lock`);
    await expect(takeFileLock(file, options)).rejects.toThrow(FileLockedError);
    expect(await leaseHeld(file, 2000)).toBe(true);
    const old = (Date.now() - 3000) / 1000;
    await utimes(`${file}.lock`, old, old);
    const release = await takeFileLock(file, options);
    expect((await stat(`${file}.lock`)).isFile()).toBe(true);
    await release();
  });

  it('waits for a holder when asked to, and takes the lock once it is given back', async () => {
    const release = await takeFileLock(file, options);
    const waiting = takeFileLock(file, { ...options, waitMs: 10_000 });
    await release();
    const second = await waiting;
    await second();
  });

  it('says a lock another process broke is lost, at its next refresh, and then leaves it to its new holder', async () => {
    let lost!: (error: Error) => void;
    const compromised = new Promise<Error>((resolve) => (lost = resolve));
    const release = await takeFileLock(file, { staleMs: 2000, onCompromised: lost });
    await rm(`${file}.lock`);
    await writeFile(`${file}.lock`, 'other-machine@1#abcdef12');
    expect((await compromised).message).toMatch(/taken by another process/);
    await release();
    expect(await readFile(`${file}.lock`, 'utf8')).toBe('other-machine@1#abcdef12');
  });

  it('makes a lock that is fresh when taken, however long after its note was made', async () => {
    // The note is made at the folder's first lock; a lock linked to it an hour later shares its mtime.
    await (
      await takeFileLock(file, options)
    )();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 3_600_000);
    const release = await takeFileLock(file, options);
    expect(await leaseHeld(file, 2000)).toBe(true);
    await release();
  });

  it('clears the notes of ended processes of this machine when it makes its own', async () => {
    const ended = await liveProcess();
    await ended.end();
    await mkdir(join(dir, '.owners'));
    await writeFile(join(dir, '.owners', `${host}@${ended.pid}`), `${host}@${ended.pid}#abcdef12`);
    await writeFile(join(dir, '.owners', 'other-machine@1'), 'other-machine@1#abcdef12');
    const release = await takeFileLock(file, options);
    await release();
    expect((await readdir(join(dir, '.owners'))).sort()).toEqual([`${host}@${process.pid}`, 'other-machine@1'].sort());
  });
  it('makes its note again when it was removed by hand, so its next lock still names its holder', async () => {
    await (
      await takeFileLock(file, options)
    )();
    const note = join(dir, '.owners', `${host}@${process.pid}`);
    await rm(note);
    const release = await takeFileLock(file, options);
    const text = await readFile(`${file}.lock`, 'utf8');
    expect(text).toMatch(new RegExp(`^${host}@${process.pid}#[0-9a-f]+$`));
    expect((await stat(`${file}.lock`)).ino).toBe((await stat(note)).ino);
    await release();
    await expect(stat(`${file}.lock`)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
