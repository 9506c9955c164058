import type { AttachedContext } from '../../shared/attachedContext';
import type { AttachmentView } from '../../shared/protocol';

/** At most this many attachments wait for the next prompt. */
export const MAX_ATTACHMENTS = 10;
/** And at most this many characters in all (about 25k tokens): context, not a whole code base. */
export const MAX_ATTACHED_CHARS = 100_000;

/**
 * The context attached to the next prompt: what the panel shows as chips, by the ids the host
 * gave them. Sending takes the ones the message names; the rest stay for the next one.
 */
export class AttachmentTray {
  private readonly items = new Map<string, AttachedContext>();
  private nextId = 1;

  /** Adds an attachment; refuses one past the limits, or the same place twice. */
  add(item: AttachedContext): void {
    for (const existing of this.items.values()) {
      if (existing.label === item.label) throw new Error(`${item.label} is attached already.`);
    }
    if (this.items.size >= MAX_ATTACHMENTS)
      throw new Error(`At most ${MAX_ATTACHMENTS} attachments go with one message; take one off first.`);
    const total = [...this.items.values()].reduce((sum, i) => sum + i.text.length, item.text.length);
    if (total > MAX_ATTACHED_CHARS) {
      throw new Error(
        `${item.label} is not attached: with it the attachments would hold ${total.toLocaleString('en-US')} characters, more than the ${MAX_ATTACHED_CHARS.toLocaleString('en-US')} one message takes. Take one off, or attach a selection.`,
      );
    }
    this.items.set(`a${this.nextId++}`, item);
  }

  /** False when there was no such attachment. */
  remove(id: string): boolean {
    return this.items.delete(id);
  }

  /** Takes the named attachments out, in the order given; throws when one is gone (nothing is taken then). */
  take(ids: readonly string[]): AttachedContext[] {
    const taken = ids.map((id) => this.items.get(id));
    if (taken.some((item) => item === undefined))
      throw new Error('An attachment of this message is no longer there; attach it again and send.');
    for (const id of ids) this.items.delete(id);
    return taken as AttachedContext[];
  }

  view(): AttachmentView[] {
    return [...this.items].map(([id, item]) => ({ id, kind: item.kind, label: item.label }));
  }
}
