import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';
import { AGENT_FILE_PATTERNS } from '../../core/config/agentFiles/agentFolders';
import { KEY_VARIABLES } from '../../core/models/keyVariables';
import { CONFIGURE, type AgentServerOptions } from '../../server/serverProtocol';
import { HostModelAvailability } from '../models/modelAvailability';

export { importAgentsCommand, newAgentFileCommand } from './agentFileCommands';

/** What the server needs to know of this window: settings, trust, the user's home, usable models. */
function serverOptions(models: HostModelAvailability): AgentServerOptions {
  const section = vscode.workspace.getConfiguration('subagents');
  const agents = section.inspect<unknown>('agents');
  return {
    home: os.homedir(),
    trusted: vscode.workspace.isTrusted,
    settings: {
      modelAliases: section.get('modelAliases') ?? {},
      userAgentFolders: { claude: true, copilot: true, ...section.get<object>('userAgentFolders') },
      projectInstructions: {
        'AGENTS.md': true,
        'CLAUDE.md': true,
        '.github/copilot-instructions.md': true,
        ...section.get<object>('projectInstructions'),
      },
    },
    agents: { user: agents?.globalValue, workspace: agents?.workspaceValue, folder: agents?.workspaceFolderValue },
    models: { editorModels: models.editorModels, keys: (['openai', 'anthropic'] as const).filter((p) => models.hasKey(p)) },
  };
}

/**
 * Starts the agent-file language server (dist/server.js, over IPC) for the agent files of the
 * workspace and of ~/.claude/agents and ~/.copilot/agents. The entry of dist/agentClient.js,
 * loaded when the first agent file is opened or an agent-file command runs.
 */
export async function startAgentFileClient(context: vscode.ExtensionContext): Promise<vscode.Disposable> {
  const module = context.asAbsolutePath(path.join('dist', 'server.js'));
  // The client gives the server this process's environment plus `env`: our keys are blanked, so its /proc/<pid>/environ shows none.
  const env = Object.fromEntries(Object.values(KEY_VARIABLES).map((name) => [name, '']));
  const run: ServerOptions = { module, transport: TransportKind.ipc, options: { env } };
  const models = new HostModelAvailability(context.secrets);
  await models.refresh();
  const watchers = [
    ...AGENT_FILE_PATTERNS.map((pattern) => vscode.workspace.createFileSystemWatcher(pattern)),
    vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(os.homedir()), '{.claude,.copilot}/agents/*.md')),
  ];
  const clientOptions: LanguageClientOptions = {
    documentSelector: AGENT_FILE_PATTERNS.map((pattern) => ({ scheme: 'file', pattern })),
    synchronize: { fileEvents: watchers },
    initializationOptions: serverOptions(models),
    diagnosticCollectionName: 'subagents',
  };
  const client = new LanguageClient('subagents.agentFiles', 'Subagents: agent files', { run, debug: run }, clientOptions);
  await client.start();
  const configure = () => void client.sendNotification(CONFIGURE, serverOptions(models));
  const subscriptions = [
    ...watchers,
    vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration('subagents') && configure()),
    vscode.workspace.onDidGrantWorkspaceTrust(configure),
    ...models.watch(configure),
  ];
  return { dispose: () => void Promise.all([client.stop(), ...subscriptions.map((s) => s.dispose())]) };
}
