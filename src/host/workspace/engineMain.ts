import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { Engine } from '../../core/engine/engine';
import { MCP_FILES } from '../../core/config/mcp/mcpDeclarations';
import { McpHub } from '../../core/tools/mcp/mcpHub';
import { mcpToolSource } from '../../core/tools/mcp/runMcpTools';
import { editorToolSource } from '../../core/tools/editorTools/editorToolSource';
import { AGENT_FILES_GLOB, USER_AGENT_FOLDERS } from '../../core/config/agentFiles/agentFolders';
import { SKILL_FOLDERS } from '../../core/config/skills/skillFolders';
import { PROJECT_INSTRUCTION_FILES } from '../../core/config/instructions/projectInstructions';
import { PromptQueue } from '../../core/engine/requests/promptQueue';
import { WorkingThreads, shutdownRequests } from '../../core/engine/requests/workingThreads';
import { JsonlThreadStore } from '../../core/storage/threads/jsonlThreadStore';
import { PendingApprovals } from '../../core/access/approvals/pendingApprovals';
import { setProcessLauncherLog, shutdownProcessLauncher } from '../../core/platform/processLauncher/sharedLauncher';
import { stopSandbox } from '../../core/access/sandbox/commandLauncher';
import type { HostToWebview } from '../../shared/protocol';
import { specsInUse } from '../../core/config/modelUse/specsInUse';
import { redactingLogger } from '../../core/access/secrets/redactEvents';
import { Redactor } from '../../core/access/secrets/redactor';
import { panelConfig, readConfiguration, type HostConfiguration } from './configuration';
import { CommandTerminals } from '../commands/commandTerminals';
import { handleChatRequest } from '../chat/chatParticipant';
import { invokeDelegation, prepareDelegation } from '../chat/delegateTool';
import type { ChatHost } from '../chat/registerChat';
import { vscodeEditorTools } from './editorTools/vscodeEditorTools';
import { hostModelChooser, hostModelResolver } from '../models/hostModels';
import { mcpApprovalMemory } from './mcpApprovalMemory';
import { acpConsentMemory } from './acpConsentMemory';
import { askAgainAboutHooks, hookConsentPrompt } from './hookConsentPrompt';
import { HostModelAvailability } from '../models/modelAvailability';
import { START_AGENT_FILE_SERVER } from '../agentFiles/agentFileServerCommand';
import { showActivity } from '../activity/activityIndicators';
import { logRuns } from '../activity/runLog';
import { WindowActivity } from '../activity/windowActivity';
import { ViewProgress } from '../panel/viewProgress';
import { configureAgentsCommand } from '../agentFiles/configureAgents';
import { openLocation } from '../panel/openLocation';
import { openThreadMemory } from '../panel/openThreadMemory';
import { PanelController } from '../panel/panelController';
import type { PanelViewState } from '../panel/panelView';
import { selectModelCommand } from '../models/selectModel';
import { EXPORT_FOLDER_KEY, exportFolder, isFolderOnDisk } from '../commands/exportFolder';
import { ThreadCommands } from '../commands/threadCommands';
import { vscodeEditor } from './vscodeEditor';
import { panelRunChanges, runChangesStorage } from './runChangesRuntime';
import { windowStorage } from './windowStorage';
import { vscodeLogger } from './vscodeLogger';
import { vscodeWorkspace } from './vscodeWorkspace';

/** What activation gets back from the lazily loaded engine bundle. */
export interface HostRuntime extends vscode.Disposable, ChatHost {
  attach(post: (message: HostToWebview) => void): void;
  detach(): void;
  receive(message: unknown): Promise<void>;
  newThread(): Promise<void>;
  /** Stops the open conversation's runs; false when none works. */
  cancel(): boolean;
  /** Puts the focus in the panel's prompt (once the panel is ready). */
  focusPrompt(): void;
  /** Shows that conversation in the panel (a top-level thread id). */
  showThread(threadId: string): Promise<void>;
  openThread(): Promise<void>;
  exportThread(): Promise<void>;
  deleteThread(): Promise<void>;
  deleteAllThreads(): Promise<void>;
  importThread(): Promise<void>;
  showRunTree(): Promise<void>;
  selectModel(): Promise<void>;
  configureAgents(): Promise<void>;
  /** Forgets the answer about the repository's hooks and asks now. */
  askAgainAboutHooks(): Promise<void>;
  /** Cancels the open runs and waits until their ends are stored (deactivate, a reload). */
  shutdown(): Promise<void>;
}

const THREAD_KEY = 'subagents.threadId';
/** How long a shutdown waits for cancelled runs to write their end (VS Code allows 5 s in all). */
const SHUTDOWN_WAIT_MS = 4000;

/** Builds the engine and its vscode adapters; the entry of dist/engine.js. */
export function createHostRuntime(context: vscode.ExtensionContext, channel: vscode.LogOutputChannel, view: PanelViewState): HostRuntime {
  // One redactor for the window: the environment's secrets now, each stored API key when it is read.
  const redactor = Redactor.fromEnvironment(process.env);
  const logger = redactingLogger(vscodeLogger(channel), redactor);
  const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  const workspaceRoot = root ?? os.homedir();
  const storage = windowStorage({
    storageDir: context.storageUri?.fsPath,
    globalDir: context.globalStorageUri.fsPath,
    memento: context.workspaceState,
  });
  // This window owns its storage: runs a crashed window left open are closed as interrupted.
  const store = new JsonlThreadStore({ dir: storage.threadsDir, recoverInterrupted: true, logger });
  const models = new HostModelAvailability(context.secrets);
  let config: HostConfiguration = readConfiguration(vscode.workspace.isTrusted, root, models);
  // Agent files with errors or warnings: the language server lists them in the Problems view, at their lines.
  const showFileProblems = () => {
    if (config.profiles.problems.some((p) => p.path && p.severity !== 'information'))
      void vscode.commands.executeCommand(START_AGENT_FILE_SERVER);
  };
  showFileProblems();
  for (const p of config.problems) (p.severity === 'information' ? logger.info : logger.warn)(p.message);

  // With no folder open the tools get an empty folder of their own, never the home folder.
  const toolRoot = root ?? storage.toolRoot!;
  if (!root) fs.mkdirSync(toolRoot, { recursive: true });
  const terminals = new CommandTerminals();
  // The panel's Approve once / Deny buttons answer these, through the controller.
  const approvals = new PendingApprovals();
  // Ripgrep and git start by a small launcher process (never forked from this large one): what goes wrong with it is said here.
  setProcessLauncherLog((message) => logger.warn(message));
  // The window's MCP servers: started by the first run that needs each, stopped with the window.
  const mcp = new McpHub({ root: toolRoot, declarations: () => config.mcp, memory: mcpApprovalMemory(context.workspaceState), logger });
  const changes = runChangesStorage({ threadsDir: storage.threadsDir, store, maxMB: () => config.settings['snapshots.maxMB'], logger });
  const workspace = vscodeWorkspace(toolRoot, terminals);
  const hookConsent = hookConsentPrompt(context.workspaceState, root);
  const engine = new Engine({
    store,
    workspace,
    snapshots: changes.snapshots,
    worktrees: changes.worktrees,
    // A window with no folder keeps its threads beside the tools' folder: never a command's change.
    untracked: [storage.threadsDir],
    approver: approvals,
    // MCP first: a name both have is the MCP server's (runTools keeps the first of each name).
    toolSources: [mcpToolSource(mcp), editorToolSource(vscodeEditorTools)],
    profiles: () => config.profiles,
    settings: () => config.settings,
    createModelResolver: () =>
      hostModelResolver({
        secrets: context.secrets,
        workspaceRoot,
        specs: specsInUse(config.settings, config.profiles),
        userSpecs: config.userSpecs,
        keyOrigins: context.globalState,
        redactor,
      }),
    logger,
    redactor,
    // The repository's hooks run once the user allows them (asked again when they change).
    hooks: () => hookConsent.forRequest(),
    // A workspace's external agents start once the user approves them on their node (asked again when they change).
    acpConsent: { memory: acpConsentMemory(context.workspaceState) },
  });
  const queue = new PromptQueue(engine, logger);
  // Copilot Chat's @subagents and Copilot's agent send through the panel's queue: one turn per thread.
  const chatDeps = { engine, queue, profiles: () => config.profiles };
  const working = new WorkingThreads(engine);

  const progress = new ViewProgress('subagents.panel');
  const activity = new WindowActivity();
  const offActivity = engine.onEvent((e) => activity.note(e));
  const offWaiting = activity.onChange((snapshot) => progress.setWaiting(snapshot.approvals.length > 0));
  const chooser = hostModelChooser(context.secrets);
  const runChanges = panelRunChanges({ storage: changes, store, workspace, engine, logger, approvals });
  const controller = new PanelController({
    runChanges: runChanges.panel,
    engine,
    store,
    queue,
    memory: openThreadMemory(path.dirname(storage.threadsDir), context.workspaceState, THREAD_KEY, logger),
    config: () => panelConfig(config, root),
    logger,
    approvals,
    models: chooser,
    workspaceRoot: root,
    editor: vscodeEditor(),
    confirm: async (message, action, detail) =>
      (await vscode.window.showWarningMessage(message, { modal: true, detail }, action)) === action,
    endAgents: (rootThreadId) => engine.externalAgents.endConversation(rootThreadId),
    // User settings: an allowlist raises trust, so a workspace may not set it (and it holds across workspaces).
    allowCommand: async (prefix) => {
      const section = vscode.workspace.getConfiguration('subagents');
      const list = section.inspect<string[]>('autoApproveCommands')?.globalValue ?? [];
      if (!list.includes(prefix)) await section.update('autoApproveCommands', [...list, prefix], vscode.ConfigurationTarget.Global);
      logger.info(`Added "${prefix}" to subagents.autoApproveCommands in the user settings, at the user's request.`);
    },
    openLocation: (location) =>
      openLocation(location, () => ({
        roots: (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath),
        // The user settings file sits two folders above the extension's global storage.
        files: [vscode.workspace.workspaceFile?.fsPath, path.join(context.globalStorageUri.fsPath, '..', '..', 'settings.json')].filter(
          (f): f is string => f !== undefined,
        ),
      })),
    onBusyChange: (busy) => {
      void vscode.commands.executeCommand('setContext', 'subagents.running', busy);
      progress.setBusy(busy);
    },
  });

  const showPanel = async (threadId?: string) => {
    await vscode.commands.executeCommand('subagents.panel.focus');
    if (threadId && controller.openThreadId !== threadId) await controller.receive({ type: 'openThread', threadId });
  };
  const threadCommands = new ThreadCommands({
    store,
    controller,
    exportFolder: {
      proposed: () =>
        exportFolder({
          lastUsed: context.globalState.get<string>(EXPORT_FOLDER_KEY),
          home: os.homedir(),
          workspaceRoots: (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath),
          isFolder: isFolderOnDisk,
        }),
      chosen: (folder) => Promise.resolve(context.globalState.update(EXPORT_FOLDER_KEY, folder)),
    },
    showThread: (threadId) => showPanel(threadId),
  });
  const stopLog = logRuns((listener) => engine.onEvent(listener), logger);
  const indicators = showActivity({
    activity,
    resolve: (id, decision) => approvals.resolve(id, decision),
    view,
    openThreadId: () => controller.openThreadId,
    show: (threadId) => showPanel(threadId),
  });

  const reload = () => {
    config = readConfiguration(vscode.workspace.isTrusted, root, models);
    showFileProblems();
    for (const p of config.problems) (p.severity === 'information' ? logger.info : logger.warn)(p.message);
    controller.configChanged();
  };
  const subscriptions = [
    runChanges.disposable,
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('subagents')) reload();
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(reload),
    // Agent files and instruction files apply to the next request without a reload, like settings.
    ...watchAgentFiles(root, reload),
    // Model aliases resolve to what this window can use: new editor models or keys change that.
    ...models.watch(reload),
  ];

  let stopping: Promise<void> | undefined;
  const shutdown = (): Promise<void> =>
    (stopping ??= (async () => {
      // Queued prompts die with the window; the runs end as cancelled, written before the host exits.
      // The MCP servers stop beside it, so both fit in VS Code's 5 s.
      const servers = mcp.stopAll();
      await shutdownRequests({ queue, working, store, logger }, SHUTDOWN_WAIT_MS);
      // The runs' last spans, sent while the host still lives (none waits when traces are off).
      const traces = engine.closeTraces();
      // The external agents kept for child threads go with the window (runs still working ended theirs when cancelled).
      const agents = engine.externalAgents.closeAll();
      store.dispose();
      // The runs are over: the launcher would end by itself when idle, or when this host exits; now is sooner.
      shutdownProcessLauncher();
      await Promise.all([servers, traces, agents]);
      // Last, once no command or MCP server can use it: the sandbox's proxy and its sockets in the temp folder.
      await stopSandbox(logger);
    })());

  return {
    attach: (post) => controller.attach(post),
    detach: () => controller.detach(),
    receive: (message) => controller.receive(message),
    newThread: () => controller.newThread(),
    cancel: () => controller.cancel(),
    focusPrompt: () => controller.focusPrompt(),
    showThread: (threadId) => showPanel(threadId),
    openThread: () => threadCommands.openThread(),
    exportThread: () => threadCommands.exportThread(),
    deleteThread: () => threadCommands.deleteThread(),
    deleteAllThreads: () => threadCommands.deleteAllThreads(),
    importThread: () => threadCommands.importThread(),
    showRunTree: () => threadCommands.showRunTree(),
    selectModel: () => selectModelCommand(chooser, config.settings.model),
    configureAgents: () => configureAgentsCommand(root),
    askAgainAboutHooks: () => askAgainAboutHooks(hookConsent),
    chat: (request, chatContext, stream, token) =>
      handleChatRequest({ ...chatDeps, showCommand: 'subagents.openPanel' }, request, chatContext, stream, token),
    prepareDelegate: (input) => prepareDelegation(chatDeps, input),
    invokeDelegate: (input, token) => invokeDelegation(chatDeps, input, token),
    shutdown,
    // VS Code disposes the subscriptions right after calling deactivate, without awaiting it: the
    // shutdown deactivate started goes on (this only starts one if deactivate did not).
    dispose: () => {
      void shutdown();
      controller.dispose();
      threadCommands.dispose();
      indicators.dispose();
      offWaiting();
      offActivity();
      progress.dispose();
      stopLog();
      working.dispose();
      terminals.dispose();
      for (const s of subscriptions) s.dispose();
    },
  };
}

/** The workspace's agent folders, instruction files and MCP files, and the user's agent folders (~/.claude/agents, ~/.copilot/agents). */
function watchAgentFiles(root: string | undefined, onChange: () => void): vscode.Disposable[] {
  const home = vscode.Uri.file(os.homedir());
  const patterns = [
    new vscode.RelativePattern(home, `{${USER_AGENT_FOLDERS.map((f) => f.dir).join(',')}}/*.md`),
    new vscode.RelativePattern(home, `{${SKILL_FOLDERS.join(',')}}/*/SKILL.md`),
  ];
  if (root)
    patterns.push(
      new vscode.RelativePattern(root, AGENT_FILES_GLOB),
      new vscode.RelativePattern(root, `{${[...PROJECT_INSTRUCTION_FILES, ...MCP_FILES.map((f) => f.path)].join(',')}}`),
    );
  return patterns.flatMap((pattern) => {
    const watcher = vscode.workspace.createFileSystemWatcher(pattern);
    return [watcher, watcher.onDidCreate(onChange), watcher.onDidChange(onChange), watcher.onDidDelete(onChange)];
  });
}
