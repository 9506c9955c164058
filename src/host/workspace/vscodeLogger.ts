import type * as vscode from 'vscode';
import type { Logger } from '../../core/ports';

/** The core's Logger over the "Subagents" log output channel. */
export function vscodeLogger(channel: vscode.LogOutputChannel): Logger {
  return {
    debug: (m) => channel.debug(m),
    info: (m) => channel.info(m),
    warn: (m) => channel.warn(m),
    error: (m) => channel.error(m),
  };
}
