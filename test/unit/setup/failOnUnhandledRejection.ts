import { afterEach } from 'vitest';

// Every promise the code under test leaves behind must be handled: a rejection nobody catches
// fails the test during which it happened (a fire-and-forget chain without a catch, say).
// One listener per worker process, however many test files that process runs.

interface Seen {
  reasons: unknown[];
}
const KEY = Symbol.for('subagents.test.unhandledRejections');
const holder = process as unknown as Record<symbol, Seen | undefined>;
let seen = holder[KEY];
if (!seen) {
  const created: Seen = { reasons: [] };
  holder[KEY] = seen = created;
  process.on('unhandledRejection', (reason) => void created.reasons.push(reason));
}
const current = seen;

afterEach(() => {
  const reasons = current.reasons.splice(0);
  if (reasons.length === 0) return;
  const text = (r: unknown) => (r instanceof Error ? (r.stack ?? r.message) : String(r));
  throw new Error(`${reasons.length} unhandled promise rejection(s) during this test:\n${reasons.map(text).join('\n---\n')}`);
});
