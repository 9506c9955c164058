import type { Engine } from '../../../src/core/engine/engine';
import { silentLogger } from '../../../src/core/ports';
import { PromptQueue } from '../../../src/core/engine/requests/promptQueue';
import type { ThreadStore } from '../../../src/core/storage/threads/threadStore';
import { PanelController, type PanelControllerDeps } from '../../../src/host/panel/panelController';
import type { HostToWebview, PanelConfig } from '../../../src/shared/protocol';

export const PANEL_CONFIG: PanelConfig = { model: 'scripted:x', agents: [], problems: [], trusted: true };

/**
 * A panel controller over an engine and its store, as the host builds one, with what it posts
 * recorded: a queue of its own, no memory across reloads, a silent log. Each test adds the ports
 * its feature needs (editor, approvals, confirm, models…).
 */
export function panelOver(deps: Partial<PanelControllerDeps> & { engine: Engine; store: ThreadStore }) {
  const posted: HostToWebview[] = [];
  const controller = new PanelController({
    queue: new PromptQueue(deps.engine),
    memory: { get: () => undefined, set: async () => {} },
    config: () => PANEL_CONFIG,
    logger: silentLogger,
    batchIntervalMs: 5,
    ...deps,
  });
  controller.attach((m) => posted.push(m));
  return { controller, posted };
}
