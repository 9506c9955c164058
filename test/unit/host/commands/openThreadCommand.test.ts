import { describe, expect, it } from 'vitest';
import { openThreadCommand, type OpenThreadDeps, type ThreadPickItem } from '../../../../src/host/commands/openThreadCommand';
import { makeEngine } from '../../core/engineHarness';

/** The command over a real engine and store; the quick pick is a port that picks what the test says. */
function deps(list: OpenThreadDeps['list'], choose: (items: ThreadPickItem[]) => ThreadPickItem | undefined, openId?: string) {
  const seen = { items: [] as ThreadPickItem[], shown: [] as string[], info: [] as string[] };
  const d: OpenThreadDeps = {
    list,
    openThreadId: () => openId,
    pick: async (items) => {
      seen.items = items;
      return choose(items);
    },
    show: async (id) => void seen.shown.push(id),
    info: (m) => void seen.info.push(m),
    now: () => Date.now(),
  };
  return { d, seen };
}

describe('Subagents: Open Thread…', () => {
  it('lists every conversation newest first with title, relative date and first prompt line, and opens the one picked', async () => {
    const h = makeEngine({ agents: { supervisor: [{ text: 'a' }, { text: 'b' }, { text: 'c' }] } });
    const first = await h.engine.send({ prompt: 'What is the invoice total?\nWith tax.' });
    await first.done;
    const second = await h.engine.send({ prompt: 'What is the invoice total?' });
    await second.done;
    await h.store.rename(first.threadId, 'Totals, first try');
    const { d, seen } = deps(
      () => h.store.list(),
      (items) => items.find((i) => i.threadId === first.threadId),
      second.threadId,
    );
    expect(await openThreadCommand(d)).toBe(first.threadId);
    expect(seen.shown).toEqual([first.threadId]);
    expect(seen.items.map((i) => [i.label, i.description, i.detail])).toEqual([
      ['What is the invoice total? (2)', 'just now · open in the panel', 'What is the invoice total?'],
      // Renamed: its first prompt still says which it is.
      ['Totals, first try', 'just now', 'What is the invoice total?'],
    ]);
  });

  it('says there is nothing to open when there is no conversation, and opens nothing when the user backs out', async () => {
    const h = makeEngine({ agents: { supervisor: [{ text: 'a' }] } });
    const none = deps(
      () => h.store.list(),
      () => undefined,
    );
    expect(await openThreadCommand(none.d)).toBeUndefined();
    expect(none.seen.info).toEqual(['There are no conversations yet: ask something in the Subagents panel first.']);
    await (
      await h.engine.send({ prompt: 'Hi' })
    ).done;
    const back = deps(
      () => h.store.list(),
      () => undefined,
    );
    expect(await openThreadCommand(back.d)).toBeUndefined();
    expect(back.seen.items).toHaveLength(1);
    expect(back.seen.shown).toEqual([]);
  });

  it("shows a prompt's $(icon) text as written, not as an icon", async () => {
    const h = makeEngine({ agents: { supervisor: [{ text: 'a' }] } });
    await (
      await h.engine.send({ prompt: '$(pass-filled) Approved by admin' })
    ).done;
    const { d, seen } = deps(
      () => h.store.list(),
      () => undefined,
    );
    await openThreadCommand(d);
    expect(seen.items[0]!.label).not.toContain('$(');
    expect(seen.items[0]!.label.replace(/\u200b/g, '')).toBe('$(pass-filled) Approved by admin');
  });
});
