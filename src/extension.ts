import * as vscode from 'vscode';
import type * as EngineMain from './host/engineMain';
import { setApiKeyCommand } from './host/apiKeys';
import type { HostRuntime } from './host/engineMain';
import { PanelViewProvider } from './host/panelView';
import { registerAgentFiles } from './host/agentFilesActivation';

/**
 * Activation stays light: the view, the commands and the log channel. The engine (the ai SDK,
 * zod, the thread store) is a separate bundle loaded when the panel or a command first needs it.
 */
let runtime: HostRuntime | undefined;

export function activate(context: vscode.ExtensionContext): void {
  const log = vscode.window.createOutputChannel('Subagents', { log: true });
  context.subscriptions.push(log);
  const engine = (): HostRuntime => {
    if (!runtime) {
      const started = Date.now();
      // A separate bundle beside this one (see esbuild.mjs); required on first use, not at activation.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const main = require('./engine.js') as typeof EngineMain;
      runtime = main.createHostRuntime(context, log);
      context.subscriptions.push(runtime);
      log.info(`Engine loaded in ${Date.now() - started} ms`);
    }
    return runtime;
  };

  const view = new PanelViewProvider(context.extensionUri, {
    onAttach: (post) => engine().attach(post),
    onDetach: () => runtime?.detach(),
    onMessage: (message) => void engine().receive(message),
  });
  context.subscriptions.push(
    vscode.window.registerWebviewViewProvider(PanelViewProvider.viewId, view),
    vscode.commands.registerCommand('subagents.openPanel', () => vscode.commands.executeCommand(`${PanelViewProvider.viewId}.focus`)),
    vscode.commands.registerCommand('subagents.newThread', async () => {
      await vscode.commands.executeCommand(`${PanelViewProvider.viewId}.focus`);
      await engine().newThread();
    }),
    vscode.commands.registerCommand('subagents.cancel', () => runtime?.cancel()),
    vscode.commands.registerCommand('subagents.showLog', () => log.show()),
    vscode.commands.registerCommand('subagents.setApiKey', () => setApiKeyCommand(context.secrets)),
  );
  registerAgentFiles(context, log);
}

/** A reload or a clean shutdown: the open runs end as `cancelled`, stored before the host exits. */
export function deactivate(): Promise<void> | undefined {
  const stopping = runtime?.shutdown();
  runtime = undefined;
  return stopping;
}
