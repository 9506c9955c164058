import * as os from 'node:os';
import * as vscode from 'vscode';
import type { EngineSettings } from '../core/engineSettings';
import type { ModelAvailability } from '../core/models/modelAliases';
import { ENGINE_SETTING_FIELDS, describeSettingProblem, readEngineSettings, type SettingsLayer } from '../core/settings/readEngineSettings';
import { listedProblems } from '../core/profiles/listedProblems';
import { loadWorkspaceProfiles, type WorkspaceProfiles } from '../core/profiles/workspaceProfiles';
import type { ConfigProblem, PanelConfig } from '../shared/protocol';

/** The settings as the engine and the panel use them, with everything wrong said in sentences. */
export interface HostConfiguration {
  settings: EngineSettings;
  profiles: WorkspaceProfiles;
  problems: ConfigProblem[];
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
  const layers: SettingsLayer[] = [
    { scope: 'user', source: 'user settings', values: user },
    { scope: 'workspace', source: 'workspace settings', values: workspace },
    { scope: 'folder', source: 'folder settings', values: folder },
  ];
  const read = readEngineSettings(layers, { trusted });
  const settings = read.settings;
  const problems: ConfigProblem[] = read.problems.map((p) => ({ message: describeSettingProblem(p), severity: 'error', location: { setting: p.setting } }));

  const agents = section.inspect<unknown>('agents');
  const profiles = loadWorkspaceProfiles({
    root,
    home: os.homedir(),
    trusted,
    userAgents: agents?.globalValue ?? {},
    workspaceAgents: [
      { source: 'workspace settings', profiles: agents?.workspaceValue ?? {} },
      { source: 'folder settings', profiles: agents?.workspaceFolderValue ?? {} },
    ],
    settings,
    models,
  });
  problems.push(...listedProblems(profiles.problems));
  return { settings, profiles, problems };
}

export function panelConfig(config: HostConfiguration, root: string | undefined): PanelConfig {
  const problems = [...config.problems];
  if (!root) problems.push({ message: 'No folder is open: open a folder so the agents have a workspace to work in.', severity: 'warning' });
  // No model is not a problem to list: the panel offers the models it finds instead (modelChooser.ts).
  return {
    model: config.settings.model,
    agents: [...config.profiles.profiles.values()].map((p) => ({ name: p.name, description: p.description, ...(p.displayName ? { displayName: p.displayName } : {}) })),
    problems,
    trusted: vscode.workspace.isTrusted,
  };
}
