import * as vscode from 'vscode';
import { runProcess } from '../../core/access/sandbox/runProcess';
import type { CommandRequest, CommandResult } from '../../core/ports';

/**
 * Agents' commands, where the user can see them: each agent gets a terminal ("Subagents: worker")
 * that echoes every command it runs and streams its output. The process itself is the core's
 * (its own process group, killed whole on timeout or cancel), so both hosts kill the same way.
 */
export class CommandTerminals implements vscode.Disposable {
  private readonly terminals = new Map<string, { terminal: vscode.Terminal; write: vscode.EventEmitter<string> }>();
  private readonly closed: vscode.Disposable;

  constructor() {
    this.closed = vscode.window.onDidCloseTerminal((t) => {
      for (const [label, entry] of this.terminals) {
        if (entry.terminal === t) {
          entry.write.dispose();
          this.terminals.delete(label);
        }
      }
    });
  }

  async run(request: CommandRequest): Promise<CommandResult> {
    const write = this.terminalFor(request.label);
    write(`\x1b[1m$ ${request.command}\x1b[0m\n`);
    const result = await runProcess(request, write);
    const end = result.timedOut ? `killed after ${request.timeoutMs} ms` : result.cancelled ? 'cancelled' : `exit code ${result.exitCode}`;
    write(`\x1b[2m[${end}]\x1b[0m\n\n`);
    return result;
  }

  dispose(): void {
    this.closed.dispose();
    for (const { terminal, write } of this.terminals.values()) {
      terminal.dispose();
      write.dispose();
    }
    this.terminals.clear();
  }

  private terminalFor(label: string): (text: string) => void {
    let entry = this.terminals.get(label);
    if (!entry) {
      const write = new vscode.EventEmitter<string>();
      // Output-only: the agent's process reads no input, so there is nothing to type into.
      const pty: vscode.Pseudoterminal = { onDidWrite: write.event, open: () => {}, close: () => {} };
      const terminal = vscode.window.createTerminal({ name: `Subagents: ${label}`, pty, isTransient: true });
      terminal.show(true);
      entry = { terminal, write };
      this.terminals.set(label, entry);
    }
    const { write } = entry;
    // A terminal needs CRLF; the process writes LF.
    return (text) => write.fire(text.replace(/\r?\n/g, '\r\n'));
  }
}
