import type { AcpClientHandlers } from './acpTypes';

/**
 * The handlers one agent process is started with, answering for whichever run of its thread is
 * working: a kept process (acpSessions.ts) outlives the run that started it, and each run binds its
 * own file layer, approval gate and node. Between runs nothing is bound: updates (a `session/load`
 * replaying what was said before) are not shown again, a permission request is answered cancelled,
 * and a file request is refused (acpConnection.ts answers it as a JSON-RPC error), since no run is there to confine, ask about or attribute it.
 */
export class TurnHandlers implements AcpClientHandlers {
  private current: AcpClientHandlers | undefined;

  bind(handlers: AcpClientHandlers): void {
    this.current = handlers;
  }

  unbind(): void {
    this.current = undefined;
  }

  update: AcpClientHandlers['update'] = (update) => this.current?.update(update);

  requestPermission: AcpClientHandlers['requestPermission'] = async (request, signal) =>
    this.current ? this.current.requestPermission(request, signal) : { outcome: { outcome: 'cancelled' } };

  readTextFile: AcpClientHandlers['readTextFile'] = async (request, signal) => {
    if (!this.current) throw new Error(IDLE);
    return this.current.readTextFile(request, signal);
  };

  writeTextFile: AcpClientHandlers['writeTextFile'] = async (request, signal) => {
    if (!this.current) throw new Error(IDLE);
    return this.current.writeTextFile(request, signal);
  };
}

const IDLE = 'No prompt of this session is running: files are read and written only during a prompt.';
