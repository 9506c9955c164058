import { describe, expect, it } from 'vitest';
import { isPlainTextDelta, parseThreadFile } from '../../../../src/core/storage/threads/threadFile';
import { runEventSchema } from '../../../../src/shared/events';

const delta = { v: 1, kind: 'text.delta', threadId: 't', runId: 'r', seq: 3, ts: 10, text: 'hi' };

describe('isPlainTextDelta', () => {
  it('accepts only what the zod schema accepts, and nothing with extra keys', () => {
    const cases: unknown[] = [
      delta,
      { ...delta, text: '' },
      { ...delta, v: 2 },
      { ...delta, threadId: '' },
      { ...delta, runId: 5 },
      { ...delta, seq: -1 },
      { ...delta, seq: 1.5 },
      { ...delta, ts: '10' },
      { ...delta, text: null },
      { ...delta, extra: true },
      { ...delta, kind: 'warning', message: 'x' },
      null,
      'text',
    ];
    for (const value of cases) {
      // The fast path may send valid events on to zod, but never accepts one zod would refuse.
      if (isPlainTextDelta(value)) expect(runEventSchema.parse(value)).toEqual(value);
    }
    expect(cases.filter((c) => isPlainTextDelta(c))).toEqual([delta, { ...delta, text: '' }]);
  });

  it('lets zod strip unknown keys from an otherwise valid delta', () => {
    const parsed = parseThreadFile(Buffer.from(`${JSON.stringify({ ...delta, extra: 1 })}\n`), 'f');
    expect(parsed.events).toEqual([delta]);
  });
});

describe('parseThreadFile', () => {
  it('counts lines across blank ones and measures a torn tail in bytes', () => {
    const line = JSON.stringify(delta);
    const data = Buffer.from(`${line}\n\n{"bad"\n${line}\n{"v":1,"kind":"text.delta","text":"é`);
    const parsed = parseThreadFile(data, 'thread file x');
    expect(parsed.events).toHaveLength(2);
    expect(parsed.warnings[0]).toMatch(/^Skipped line 3 of thread file x: it is not JSON/);
    expect(parsed.warnings[1]).toMatch(/^Dropped the torn last line 5 of thread file x/);
    expect(parsed.torn).toBe(true);
    expect(parsed.keepBytes).toBe(Buffer.byteLength(`${line}\n\n{"bad"\n${line}\n`));
  });
});
