import type { ChangeJournal, JournalEntry } from './changeJournal';
import type { ReadLedger } from './readLedger';
import type { SeenFile } from './seenFile';

export interface GuardRequest {
  journal: ChangeJournal;
  ledger: ReadLedger;
  runId: string;
  abs: string;
  /** As the agent reads it back. */
  rel: string;
  current: SeenFile;
  /**
   * `write` replaces the whole file, so any change it did not see would be lost; `edit` replaces
   * one exact piece (checked against the content as it is), so only another run's change stops it.
   */
  kind: 'write' | 'edit';
}

const READ_AGAIN = 'Nothing was written. Read it again (read_file) and make your change to what is there now.';

/**
 * The conflict guard: a sentence refusing the write when the file changed since this run last saw
 * it (or, never read, since the run started) in a way the write would lose, naming who changed it;
 * undefined when the write may go ahead.
 */
export function guardWrite(request: GuardRequest): string | undefined {
  const { journal, ledger, runId, abs, rel, current, kind } = request;
  const seen = ledger.get(abs);
  if (seen) {
    if (seen.hash === current.hash) return undefined;
    const other = journal.changedSince(abs, seen.tick, runId);
    if (other) return `${rel} was changed by ${authorOf(other)} since you read it. ${READ_AGAIN}`;
    if (kind === 'edit') return undefined;
    const own = journal.latest(abs, seen.tick);
    if (own?.runId === runId) return `${rel} was changed by one of your own commands since you read it. ${READ_AGAIN}`;
    const who = current.unsaved
      ? 'the user in the editor (unsaved changes)'
      : 'someone other than the agents here (the user, or another program)';
    return `${rel} was changed by ${who} since you read it. ${READ_AGAIN}`;
  }
  const other = journal.changedSince(abs, ledger.startTick, runId);
  if (other) return `${rel} was changed by ${authorOf(other)} since your run started, and you have not read it. ${READ_AGAIN}`;
  if (kind === 'edit' || current.hash === null) return undefined;
  if (current.unsaved) return `${rel} has unsaved changes by the user in the editor, which you have not read. ${READ_AGAIN}`;
  if (current.mtimeMs > ledger.changedAfter && journal.latest(abs, ledger.startTick)?.runId !== runId) {
    return `${rel} was changed since your run started (by the user, or another program), and you have not read it. ${READ_AGAIN}`;
  }
  return undefined;
}

function authorOf(entry: JournalEntry): string {
  return `another agent's run ("${entry.agent}", run ${entry.runId}, with ${entry.tool})`;
}
