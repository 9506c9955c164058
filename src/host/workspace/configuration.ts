import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { EngineSettings } from '../../core/config/settings/engineSettings';
import type { ModelAvailability } from '../../core/models/modelAliases';
import { ENGINE_SETTING_FIELDS, readEngineSettings, type SettingsLayer } from '../../core/config/settings/readEngineSettings';
import { userChosenSpecs } from '../../core/models/keyOrigins';
import { declareMcpServers, describeMcpDeclProblem, type McpDeclarations } from '../../core/config/mcp/mcpDeclarations';
import { loadWorkspaceProfiles, type WorkspaceProfiles } from '../../core/config/profiles/workspaceProfiles';
import type { ConfigProblem, PanelConfig } from '../../shared/protocol';
import { configProblems, type SettingsPlace } from '../panel/configProblems';
import { brokenAgents } from '../../core/config/profiles/brokenAgents';

/** The settings as the engine and the panel use them, with everything wrong said in sentences. */
export interface HostConfiguration {
  settings: EngineSettings;
  profiles: WorkspaceProfiles;
  /** The MCP servers declared in settings, .vscode/mcp.json and .mcp.json. */
  mcp: McpDeclarations;
  problems: ConfigProblem[];
  /** The model specs the user chose (user settings, user profiles): their servers may get the API key. */
  userSpecs: string[];
}

/**
 * Reads `subagents.*`, the user's and the workspace's agent files and the project's instruction
 * files. A bad value falls back to its default with a problem naming the setting; profiles are
 * merged by precedence, and in an untrusted workspace only the user's own settings and agent
 * folders count (workspace profiles and model settings could run code or send data).
 */
export function readConfiguration(trusted: boolean, root: string | undefined, models: ModelAvailability): HostConfiguration {
  const section = vscode.workspace.getConfiguration('subagents');
  const user: Record<string, unknown> = {};
  const workspace: Record<string, unknown> = {};
  const folder: Record<string, unknown> = {};
  for (const field of ENGINE_SETTING_FIELDS) {
    const inspected = section.inspect(field);
    user[field] = inspected?.globalValue;
    workspace[field] = inspected?.workspaceValue;
    folder[field] = inspected?.workspaceFolderValue;
  }
  const places = settingsPlaces(root);
  const [userPlace, workspacePlace, folderPlace] = places;
  const layers: SettingsLayer[] = [
    { scope: 'user', source: userPlace.label, values: user },
    { scope: 'workspace', source: workspacePlace.label, values: workspace },
    { scope: 'folder', source: folderPlace.label, values: folder },
  ];
  const read = readEngineSettings(layers, { trusted });
  const settings = read.settings;

  const servers = section.inspect<unknown>('mcpServers');
  const mcp = declareMcpServers({
    root,
    trusted,
    user: servers?.globalValue,
    workspace: [
      { source: workspacePlace.label, value: servers?.workspaceValue },
      { source: folderPlace.label, value: servers?.workspaceFolderValue },
    ],
  });
  const agents = section.inspect<unknown>('agents');
  const profiles = loadWorkspaceProfiles({
    root,
    home: os.homedir(),
    trusted,
    userAgents: agents?.globalValue ?? {},
    workspaceAgents: [
      { source: workspacePlace.label, profiles: agents?.workspaceValue ?? {} },
      { source: folderPlace.label, profiles: agents?.workspaceFolderValue ?? {} },
    ],
    settings,
    models,
    mcpServers: mcp.servers.map((s) => s.name),
  });
  const problems = configProblems({
    settingProblems: read.problems,
    profileProblems: profiles.problems,
    profiles: profiles.profiles,
    places,
  });
  const userSpecs = userChosenSpecs({ spec: settings.model, byUser: read.scopes.model === 'user' }, profiles);
  for (const p of mcp.problems) problems.push({ message: describeMcpDeclProblem(p), severity: 'warning' });
  return { settings, profiles, mcp, problems, userSpecs };
}

/**
 * The settings layers by the names users know them by, with their files: user settings (VS Code
 * opens that one itself), the workspace's (`.vscode/settings.json`, or the .code-workspace file)
 * and the folder's.
 */
function settingsPlaces(root: string | undefined): [SettingsPlace, SettingsPlace, SettingsPlace] {
  const folderFile = root ? path.join(root, '.vscode', 'settings.json') : undefined;
  const workspaceFile = vscode.workspace.workspaceFile?.scheme === 'file' ? vscode.workspace.workspaceFile.fsPath : undefined;
  const folder: SettingsPlace = folderFile ? { label: '.vscode/settings.json', path: folderFile } : { label: 'folder settings' };
  // With a single folder open, its workspace settings are the folder's file: one place, one label.
  const workspace: SettingsPlace = workspaceFile
    ? { label: path.basename(workspaceFile), path: workspaceFile }
    : folderFile
      ? folder
      : { label: 'workspace settings' };
  return [{ label: 'user settings' }, workspace, folder];
}

export function panelConfig(config: HostConfiguration, root: string | undefined): PanelConfig {
  const problems = [...config.problems];
  if (!root) problems.push({ message: 'No folder is open: open a folder so the agents have a workspace to work in.', severity: 'warning' });
  // No model is not a problem to list: the panel offers the models it finds instead (modelChooser.ts).
  return {
    model: config.settings.model,
    agents: [...config.profiles.profiles.values()].map((p) => ({
      name: p.name,
      description: p.description,
      ...(p.displayName ? { displayName: p.displayName } : {}),
    })),
    brokenAgents: brokenAgents(config.profiles.problems, config.profiles.profiles),
    commands: (config.profiles.commands ?? []).map((c) => ({
      name: c.name,
      description: c.description ?? c.source,
      ...(c.argumentHint ? { argumentHint: c.argumentHint } : {}),
    })),
    problems,
    trusted: vscode.workspace.isTrusted,
  };
}
