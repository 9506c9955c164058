import { createRequire } from 'node:module';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type * as EngineMain from './host/engineMain';
import { setApiKeyCommand } from './host/apiKeys';
import type { HostRuntime } from './host/engineMain';
import { PanelViewProvider } from './host/panelView';
import { registerAgentFiles } from './host/agentFilesActivation';
import { registerChat } from './host/chat/registerChat';
import { requireWithCodeCache } from './core/codeCache/requireWithCodeCache';

/**
 * Activation stays light: the view, the commands and the log channel. The engine (the ai SDK,
 * zod, the thread store) is a separate bundle loaded when the panel or a command first needs it.
 */
let runtime: HostRuntime | undefined;

export function activate(context: vscode.ExtensionContext): void {
  const log = vscode.window.createOutputChannel('Subagents', { log: true });
  context.subscriptions.push(log);
  const view: PanelViewProvider = new PanelViewProvider(context.extensionUri, {
    onAttach: (post) => engine().attach(post),
    onDetach: () => runtime?.detach(),
    onMessage: (message) => void engine().receive(message),
  });
  const engine = (): HostRuntime => {
    if (!runtime) {
      const started = Date.now();
      const { main, cache } = loadEngine(context, log);
      runtime = main.createHostRuntime(context, log, view);
      context.subscriptions.push(runtime);
      log.info(`Engine loaded in ${Date.now() - started} ms (code cache: ${cache})`);
    }
    return runtime;
  };
  /** With a conversation (the status bar's waiting approval), shows that one. */
  const showPanel = async (threadId?: unknown) => {
    await vscode.commands.executeCommand(`${PanelViewProvider.viewId}.focus`);
    if (typeof threadId === 'string') await engine().showThread(threadId);
    engine().focusPrompt();
  };
  /** Every command answers: what it could not do is said, never dropped. */
  const command = (id: string, run: (...args: unknown[]) => unknown) =>
    vscode.commands.registerCommand(id, async (...args: unknown[]) => {
      try {
        await run(...args);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        log.error(`${id} failed: ${message}`);
        void vscode.window.showErrorMessage(message);
      }
    });
  context.subscriptions.push(
    view,
    vscode.window.registerWebviewViewProvider(PanelViewProvider.viewId, view),
    command('subagents.openPanel', showPanel),
    command('subagents.newThread', async () => {
      await showPanel();
      await engine().newThread();
    }),
    command('subagents.cancel', () => {
      // No engine loaded means nothing has run in this window: no need to load it to say so.
      if (runtime?.cancel()) void vscode.window.setStatusBarMessage('$(debug-stop) Subagents: stopping the conversation\'s runs…', 4000);
      else void vscode.window.showInformationMessage('No run is active in the open conversation.');
    }),
    command('subagents.showLog', () => log.show()),
    command('subagents.setApiKey', () => setApiKeyCommand(context.secrets)),
    command('subagents.exportThread', () => engine().exportThread()),
    command('subagents.deleteThread', () => engine().deleteThread()),
    command('subagents.deleteAllThreads', () => engine().deleteAllThreads()),
    command('subagents.importThread', () => engine().importThread()),
    command('subagents.showRunTree', () => engine().showRunTree()),
    command('subagents.selectModel', () => engine().selectModel()),
    command('subagents.configureAgents', () => engine().configureAgents()),
  );
  registerAgentFiles(context, log);
  // Copilot Chat's @subagents and Copilot's agent's subagents_delegate (ids as in package.json).
  context.subscriptions.push(...registerChat(engine, { participant: 'subagents.chat', tool: 'subagents_delegate' }, vscode.Uri.joinPath(context.extensionUri, 'media', 'icon.svg')));
}

/** How long after the engine loads its code cache is written: by then the first request's code is compiled too. */
const CODE_CACHE_SAVE_DELAY_MS = 20_000;

/**
 * dist/engine.js, a separate bundle beside this one (see esbuild.mjs), required on first use, not
 * at activation; through V8's code cache in the extension's global storage, which spares about
 * half of its load from the second window on (src/core/codeCache/).
 */
function loadEngine(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): { main: typeof EngineMain; cache: string } {
  const file = join(__dirname, 'engine.js');
  if (context.globalStorageUri.scheme !== 'file') return { main: createRequire(file)(file) as typeof EngineMain, cache: 'off, the global storage is not on disk' };
  const cacheDir = join(context.globalStorageUri.fsPath, 'code-cache');
  const loaded = requireWithCodeCache<typeof EngineMain>(file, cacheDir);
  if (loaded.problem) log.warn(loaded.problem);
  const timer = setTimeout(() => {
    loaded.save().catch((error: unknown) => log.warn(`Could not write the engine's code cache in ${cacheDir}: ${(error as Error).message}. Each window compiles the engine again (about 40 ms).`));
  }, CODE_CACHE_SAVE_DELAY_MS);
  timer.unref();
  return { main: loaded.exports, cache: loaded.cache };
}

/** A reload or a clean shutdown: the open runs end as `cancelled`, stored before the host exits. */
export function deactivate(): Promise<void> | undefined {
  const stopping = runtime?.shutdown();
  runtime = undefined;
  return stopping;
}
