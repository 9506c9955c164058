import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { Engine } from '../core/engine';
import { AGENT_FILES_GLOB, USER_AGENT_FOLDERS } from '../core/agentFiles/agentFolders';
import { PROJECT_INSTRUCTION_FILES } from '../core/instructions/projectInstructions';
import { JsonlThreadStore } from '../core/threads/jsonlThreadStore';
import { PendingApprovals } from '../core/tools/pendingApprovals';
import type { HostToWebview } from '../shared/protocol';
import { specsInUse } from '../core/models/specsInUse';
import { panelConfig, readConfiguration, type HostConfiguration } from './configuration';
import { CommandTerminals } from './commandTerminals';
import { hostModelChooser, hostModelResolver } from './hostModels';
import { HostModelAvailability } from './modelAvailability';
import { START_AGENT_FILE_SERVER } from './agentFileServerCommand';
import { PanelController } from './panelController';
import { vscodeLogger } from './vscodeLogger';
import { vscodeWorkspace } from './vscodeWorkspace';

/** What activation gets back from the lazily loaded engine bundle. */
export interface HostRuntime extends vscode.Disposable {
  attach(post: (message: HostToWebview) => void): void;
  detach(): void;
  receive(message: unknown): Promise<void>;
  newThread(): Promise<void>;
  cancel(): void;
}

const THREAD_KEY = 'subagents.threadId';

/** Builds the engine and its vscode adapters; the entry of dist/engine.js. */
export function createHostRuntime(context: vscode.ExtensionContext, channel: vscode.LogOutputChannel): HostRuntime {
  const logger = vscodeLogger(channel);
  const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  const workspaceRoot = root ?? os.homedir();
  // Per-workspace storage when a folder is open; the global one otherwise, so threads are never lost.
  const storageDir = path.join((context.storageUri ?? context.globalStorageUri).fsPath, 'threads');
  // This window owns the folder: runs left open by a crashed or reloaded window are closed as interrupted.
  const store = new JsonlThreadStore({ dir: storageDir, recoverInterrupted: true, logger });
  const models = new HostModelAvailability(context.secrets);
  let config: HostConfiguration = readConfiguration(vscode.workspace.isTrusted, root, models);
  // Agent files with errors or warnings: the language server lists them in the Problems view, at their lines.
  const showFileProblems = () => {
    if (config.profiles.problems.some((p) => p.path && p.severity !== 'information')) void vscode.commands.executeCommand(START_AGENT_FILE_SERVER);
  };
  showFileProblems();
  for (const p of config.problems) (p.severity === 'information' ? logger.info : logger.warn)(p.message);

  // With no folder open the tools get an empty folder of their own, never the home folder.
  const toolRoot = root ?? path.join(context.globalStorageUri.fsPath, 'no-folder');
  if (!root) fs.mkdirSync(toolRoot, { recursive: true });
  const terminals = new CommandTerminals();
  // The panel's Approve once / Deny buttons answer these, through the controller.
  const approvals = new PendingApprovals();
  const engine = new Engine({
    store,
    workspace: vscodeWorkspace(toolRoot, terminals),
    approver: approvals,
    profiles: () => config.profiles,
    settings: () => config.settings,
    createModelResolver: () => hostModelResolver(context.secrets, workspaceRoot, specsInUse(config.settings, config.profiles)),
    logger,
  });

  let progressDone: (() => void) | undefined;
  const controller = new PanelController({
    engine,
    store,
    memory: { get: () => context.workspaceState.get<string>(THREAD_KEY), set: (id) => context.workspaceState.update(THREAD_KEY, id) },
    config: () => panelConfig(config, root),
    logger,
    approvals,
    models: hostModelChooser(context.secrets),
    onBusyChange: (busy) => {
      void vscode.commands.executeCommand('setContext', 'subagents.running', busy);
      progressDone?.();
      progressDone = undefined;
      if (busy) {
        // The view's own progress bar, while the open thread works.
        void vscode.window.withProgress({ location: { viewId: 'subagents.panel' } }, () => new Promise<void>((resolve) => (progressDone = resolve)));
      }
    },
  });

  const reload = () => {
    config = readConfiguration(vscode.workspace.isTrusted, root, models);
    showFileProblems();
    for (const p of config.problems) (p.severity === 'information' ? logger.info : logger.warn)(p.message);
    controller.configChanged();
  };
  const subscriptions = [
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('subagents')) reload();
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(reload),
    // Agent files and instruction files apply to the next request without a reload, like settings.
    ...watchAgentFiles(root, reload),
    // Model aliases resolve to what this window can use: new editor models or keys change that.
    ...models.watch(reload),
  ];

  return {
    attach: (post) => controller.attach(post),
    detach: () => controller.detach(),
    receive: (message) => controller.receive(message),
    newThread: () => controller.newThread(),
    cancel: () => controller.cancel(),
    dispose: () => {
      engine.cancelAll();
      controller.dispose();
      terminals.dispose();
      for (const s of subscriptions) s.dispose();
      progressDone?.();
      void store.flush();
    },
  };
}

/** The workspace's agent folders and instruction files, and the user's agent folders (~/.claude/agents, ~/.copilot/agents). */
function watchAgentFiles(root: string | undefined, onChange: () => void): vscode.Disposable[] {
  const home = vscode.Uri.file(os.homedir());
  const patterns = [new vscode.RelativePattern(home, `{${USER_AGENT_FOLDERS.map((f) => f.dir).join(',')}}/*.md`)];
  if (root) patterns.push(new vscode.RelativePattern(root, AGENT_FILES_GLOB), new vscode.RelativePattern(root, `{${PROJECT_INSTRUCTION_FILES.join(',')}}`));
  return patterns.flatMap((pattern) => {
    const watcher = vscode.workspace.createFileSystemWatcher(pattern);
    return [watcher, watcher.onDidCreate(onChange), watcher.onDidChange(onChange), watcher.onDidDelete(onChange)];
  });
}
