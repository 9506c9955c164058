import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { lazyUnion } from '../../../src/shared/lazyUnion';

function members(built: string[]) {
  return {
    ping: () => (built.push('ping'), z.object({})),
    say: () => (built.push('say'), z.object({ text: z.string().min(1) })),
    open: () => (built.push('open'), z.strictObject({ id: z.string() })),
  };
}

/** zod's own union of the same members, each with its kind's literal. */
function eagerUnion() {
  const m = members([]);
  return z.discriminatedUnion('type', [
    m.ping().extend({ type: z.literal('ping') }),
    m.say().extend({ type: z.literal('say') }),
    m.open().extend({ type: z.literal('open') }),
  ]);
}

const inputs: unknown[] = [
  { type: 'ping' },
  { type: 'ping', extra: 1 },
  { type: 'say', text: 'hi' },
  { type: 'say', text: '' },
  { type: 'say' },
  { type: 'open', id: 'a' },
  { type: 'open', id: 'a', extra: true },
  { type: 'nope' },
  { type: 'constructor' },
  { type: 'toString' },
  { type: 7 },
  {},
  null,
  'ping',
  [{ type: 'ping' }],
];

describe('lazyUnion', () => {
  it('builds a member when the first value of its kind comes, and only once', () => {
    const built: string[] = [];
    const union = lazyUnion('type', members(built));
    expect(built).toEqual([]);
    expect(union.safeParse({ type: 'say', text: 'hi' }).success).toBe(true);
    expect(union.safeParse({ type: 'say', text: 'again' }).success).toBe(true);
    expect(union.safeParse({ type: 'nope' }).success).toBe(false);
    expect(built).toEqual(['say']);
  });

  it.each(inputs.map((input) => [JSON.stringify(input), input]))(
    'parses %s as zod’s discriminatedUnion of the same members does',
    (_, input) => {
      const ours = lazyUnion('type', members([])).safeParse(input);
      const theirs = eagerUnion().safeParse(input);
      expect(ours.success).toBe(theirs.success);
      expect(ours.data).toEqual(theirs.data);
      // The issues of a wrong member are the member's own; only a value of no member's kind is told otherwise (below).
      if (
        !ours.success &&
        typeof input === 'object' &&
        input !== null &&
        ['ping', 'say', 'open'].includes((input as { type?: unknown }).type as string)
      ) {
        expect(ours.error.issues).toEqual(theirs.error!.issues);
      }
    },
  );

  it('tells a value of no member’s kind which kinds there are', () => {
    const union = lazyUnion('type', members([]));
    for (const input of [{ type: 'nope' }, { type: 'constructor' }, {}, null]) {
      const parsed = union.safeParse(input);
      expect(parsed.success).toBe(false);
      const text = parsed.error!.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
      expect(text).toMatch(input === null ? /\(root\)/ : /^type: .*"ping".*"say".*"open"/);
    }
  });
});
