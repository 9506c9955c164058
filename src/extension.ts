import { basename, join } from 'node:path';
import * as vscode from 'vscode';
import type * as EngineMain from './host/workspace/engineMain';
import { setApiKeyCommand } from './host/models/apiKeys';
import type { HostRuntime } from './host/workspace/engineMain';
import { PanelViewProvider } from './host/panel/panelView';
import { registerAgentFiles } from './host/agentFiles/agentFilesActivation';
import { registerChat } from './host/chat/registerChat';
import { requireWithCodeCache } from './core/platform/codeCache/requireWithCodeCache';
import { hideKeysFromProc } from './core/access/secrets/processKeys';
import { openReadme } from './host/commands/openReadme';
import { openReadmeDeps } from './host/commands/openReadmeCommand';

/**
 * Activation stays light: the view, the commands and the log channel. The engine (the ai SDK,
 * zod, the thread store) is a separate bundle loaded when the panel or a command first needs it.
 */
let runtime: HostRuntime | undefined;

export function activate(context: vscode.ExtensionContext): void {
  const log = vscode.window.createOutputChannel('Subagents', { log: true });
  context.subscriptions.push(log);
  // A command run without the OS sandbox can read /proc/<this pid>/environ: the API keys the window
  // was started with leave it (process.env keeps them, for the other extensions of this host too).
  const notHidden = hideKeysFromProc();
  if (notHidden) log.warn(notHidden);
  const view: PanelViewProvider = new PanelViewProvider(context.extensionUri, {
    onAttach: (post) => engine().attach(post),
    onDetach: () => runtime?.detach(),
    onMessage: (message) => void engine().receive(message),
  });
  const engine = (): HostRuntime => {
    if (!runtime) {
      const started = performance.now();
      const { main, cache } = loadEngine(context, log);
      const loaded = performance.now();
      runtime = main.createHostRuntime(context, log, view);
      context.subscriptions.push(runtime);
      log.info(
        `Engine loaded in ${Math.round(loaded - started)} ms (code cache: ${cache}), started in ${Math.round(performance.now() - loaded)} ms`,
      );
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
      if (runtime?.cancel()) void vscode.window.setStatusBarMessage("$(debug-stop) Subagents: stopping the conversation's runs…", 4000);
      else void vscode.window.showInformationMessage('No run is active in the open conversation.');
    }),
    command('subagents.showLog', () => log.show()),
    command('subagents.setApiKey', () => setApiKeyCommand(context.secrets)),
    command('subagents.openThread', () => engine().openThread()),
    command('subagents.exportThread', () => engine().exportThread()),
    command('subagents.deleteThread', () => engine().deleteThread()),
    command('subagents.deleteAllThreads', () => engine().deleteAllThreads()),
    command('subagents.importThread', () => engine().importThread()),
    command('subagents.showRunTree', () => engine().showRunTree()),
    command('subagents.selectModel', () => engine().selectModel()),
    command('subagents.configureAgents', () => engine().configureAgents()),
    command('subagents.askAgainAboutHooks', () => engine().askAgainAboutHooks()),
    // The settings' links to the README (package.json), and the palette; needs no engine.
    command('subagents.openReadme', (section) => openReadme(openReadmeDeps(context.extensionUri), section)),
  );
  registerAgentFiles(context, log);
  // Copilot Chat's @subagents and Copilot's agent's subagents_delegate (ids as in package.json).
  context.subscriptions.push(
    ...registerChat(
      engine,
      { participant: 'subagents.chat', tool: 'subagents_delegate' },
      vscode.Uri.joinPath(context.extensionUri, 'media', 'icon.svg'),
    ),
  );
}

/** How long after a bundle loads its code cache is written: by then the first request's code is compiled too. */
const CODE_CACHE_SAVE_DELAY_MS = 20_000;

/**
 * dist/engine.js, a separate bundle beside this one (see esbuild.mjs), required on first use, not
 * at activation; through V8's code cache in the extension's global storage, as are the lazy
 * bundles it requires, which spares about half of each load from the second window on
 * (src/core/platform/codeCache/).
 */
function loadEngine(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): { main: typeof EngineMain; cache: string } {
  const file = join(__dirname, 'engine.js');
  const loaded = requireWithCodeCache<typeof EngineMain>(file, {
    // A global storage not on disk has no folder to keep caches in: the bundles load without them.
    cacheDir: context.globalStorageUri.scheme === 'file' ? join(context.globalStorageUri.fsPath, 'code-cache') : undefined,
    saveAfterMs: CODE_CACHE_SAVE_DELAY_MS,
    // engine.js's own load is said by the caller; these are its lazy bundles (the sandbox, MCP, the model clients…).
    onLoad: (path, cache, ms) => {
      if (path !== file) log.debug(`Loaded ${basename(path)} in ${Math.round(ms)} ms (code cache: ${cache})`);
    },
    onProblem: (message) =>
      log.warn(`${message}. The extension works without it; a window then compiles its code again (about half of its load).`),
  });
  return { main: loaded.exports, cache: loaded.cache };
}

/** A reload or a clean shutdown: the open runs end as `cancelled`, stored before the host exits. */
export function deactivate(): Promise<void> | undefined {
  const stopping = runtime?.shutdown();
  runtime = undefined;
  return stopping;
}
