/**
 * Writes to one file, one at a time, in the order they were called. A model sends several
 * edit_file/write_file calls on one file in one step and the SDK runs them at once; side by side,
 * each would read the same old text and the last write would erase the others. Keyed by the file's
 * real path (symlinks followed, `.` and `..` gone: what workspacePath.ts resolves), so every
 * spelling of one file waits in one line; held by the tools above the Workspace port, so the
 * editor's writes (a WorkspaceEdit) wait in it too. Process-wide: every run here writes one disk.
 */

/** The end of each file's line: the promise the next comer waits for. */
const lines = new Map<string, Promise<void>>();

/**
 * Calls join their file's line in the order they started, though finding the key (a realpath)
 * takes each a different time: each joins only after the call before it has joined (or found
 * that it has no line). Finding a key is quick, so this costs a few milliseconds at most.
 */
let lastJoined: Promise<void> = Promise.resolve();

/**
 * Runs `work` once every earlier call on the same key is done, and holds the key until it ends.
 * `keyOf` starts at once; undefined (or a failure) means no line: `work` runs at once and reports
 * the problem itself. A signal that aborts while waiting gives up the place, leaving the line
 * intact for those behind.
 */
export async function oneFileAtATime<T>(
  keyOf: () => Promise<string | undefined>,
  signal: AbortSignal,
  work: (key: string | undefined) => Promise<T>,
): Promise<T> {
  const before = lastJoined;
  let joined!: () => void;
  lastJoined = new Promise<void>((resolve) => (joined = resolve));
  const finding = keyOf().catch(() => undefined);
  let done: () => void = () => {};
  let ahead: Promise<void> = Promise.resolve();
  let key: string | undefined;
  try {
    key = await finding;
    await before;
    if (key !== undefined) {
      ahead = lines.get(key) ?? Promise.resolve();
      const mine = new Promise<void>((resolve) => (done = resolve));
      const end = ahead.then(() => mine);
      lines.set(key, end);
      // The last in line clears the entry, so the map holds only files being written.
      void end.then(() => {
        if (lines.get(key!) === end) lines.delete(key!);
      });
    }
  } finally {
    joined();
  }
  try {
    await waitUnlessAborted(ahead, signal);
    return await work(key);
  } finally {
    done();
  }
}

function waitUnlessAborted(ahead: Promise<void>, signal: AbortSignal): Promise<void> {
  signal.throwIfAborted();
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    void ahead.then(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    });
  });
}
