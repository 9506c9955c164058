/** Exit codes of the CLI. */
export const EXIT = { ok: 0, runFailed: 1, usage: 2, interrupted: 130 } as const;

/** Bad usage or configuration: printed on stderr, exit code 2. The message says what to do. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
