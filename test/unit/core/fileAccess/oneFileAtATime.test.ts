import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { oneFileAtATime } from '../../../../src/core/platform/files/oneFileAtATime';

/** A key found after `ms`-ish turns of the event loop: later calls may find theirs first. */
const keyAfter = (key: string | undefined, turns: number) => async () => {
  for (let i = 0; i < turns; i++) await nextTurn();
  return key;
};
const never = () => new AbortController().signal;

describe('oneFileAtATime', () => {
  it('runs the calls on one key one at a time, in the order they were made, however long each takes to find its key', async () => {
    const log: string[] = [];
    const work = (name: string) => async () => {
      log.push(`start ${name}`);
      await nextTurn();
      log.push(`end ${name}`);
    };
    await Promise.all([
      oneFileAtATime(keyAfter('a', 20), never(), work('1')),
      oneFileAtATime(keyAfter('a', 1), never(), work('2')),
      oneFileAtATime(keyAfter('a', 5), never(), work('3')),
    ]);
    expect(log).toEqual(['start 1', 'end 1', 'start 2', 'end 2', 'start 3', 'end 3']);
  });

  it('calls on other keys, or with no key, do not wait for each other', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const first = oneFileAtATime(keyAfter('a', 0), never(), () => held);
    const other = await oneFileAtATime(keyAfter('b', 0), never(), async () => 'b ran');
    const keyless = await oneFileAtATime(keyAfter(undefined, 0), never(), async (key) => `no key: ${key}`);
    expect([other, keyless]).toEqual(['b ran', 'no key: undefined']);
    release();
    await first;
  });

  it('a call cancelled while it waits gives up its place; those behind it still wait for the one ahead', async () => {
    const log: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const first = oneFileAtATime(keyAfter('a', 0), never(), async () => {
      await held;
      log.push('first');
    });
    const cancel = new AbortController();
    const second = oneFileAtATime(keyAfter('a', 0), cancel.signal, async () => void log.push('second'));
    const third = oneFileAtATime(keyAfter('a', 0), never(), async () => void log.push('third'));
    await nextTurn();
    cancel.abort(new Error('cancelled'));
    await expect(second).rejects.toThrow('cancelled');
    expect(log).toEqual([]);
    release();
    await Promise.all([first, third]);
    expect(log).toEqual(['first', 'third']);
  });

  it('a failing call lets the next one go', async () => {
    const failed = oneFileAtATime(keyAfter('a', 0), never(), async () => Promise.reject(new Error('disk full')));
    const next = oneFileAtATime(keyAfter('a', 0), never(), async () => 'next ran');
    await expect(failed).rejects.toThrow('disk full');
    expect(await next).toBe('next ran');
  });
});
