import { tmpdir } from 'node:os';
import type { CommandLaunch, CommandRequest } from '../../../../src/core/ports';

/** A request to run `launch` in the temp folder, with room enough; `extra` replaces any of it. */
export function commandRequest(command: string, launch: CommandLaunch, extra: Partial<CommandRequest> = {}): CommandRequest {
  return {
    command,
    launch,
    cwd: tmpdir(),
    timeoutMs: 10_000,
    signal: new AbortController().signal,
    maxOutputChars: 10_000,
    label: 'test',
    ...extra,
  };
}
