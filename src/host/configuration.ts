import * as vscode from 'vscode';
import type { EngineSettings } from '../core/engineSettings';
import { ENGINE_SETTING_FIELDS, describeSettingProblem, readEngineSettings, type SettingsLayer } from '../core/settings/readEngineSettings';
import { describeProfileProblem } from '../core/profiles/describeProfileProblem';
import { loadWorkspaceProfiles } from '../core/profiles/workspaceProfiles';
import type { ProfileSet } from '../core/profiles/profile';
import type { ConfigProblem, PanelConfig } from '../shared/protocol';

/** The settings as the engine and the panel use them, with everything wrong said in sentences. */
export interface HostConfiguration {
  settings: EngineSettings;
  profiles: ProfileSet;
  problems: ConfigProblem[];
}

/**
 * Reads `subagents.*` and the workspace's agent files. A bad value falls back to its default with a
 * problem naming the setting; profiles are merged by DESIGN section 4's precedence, and in an
 * untrusted workspace only the user's own settings count (workspace profiles and model settings
 * could run code or send data).
 */
export function readConfiguration(trusted: boolean, root: string | undefined): HostConfiguration {
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
    trusted,
    userAgents: agents?.globalValue ?? {},
    workspaceAgents: [
      { source: 'workspace settings', profiles: agents?.workspaceValue ?? {} },
      { source: 'folder settings', profiles: agents?.workspaceFolderValue ?? {} },
    ],
  });
  for (const p of profiles.problems) {
    problems.push({ message: `${describeProfileProblem(p)} The other agents still work.`, severity: 'error' });
  }
  return { settings, profiles, problems };
}

export function panelConfig(config: HostConfiguration, root: string | undefined): PanelConfig {
  const problems = [...config.problems];
  if (!root) problems.push({ message: 'No folder is open: open a folder so the agents have a workspace to work in.', severity: 'warning' });
  // No model is not a problem to list: the panel offers the models it finds instead (modelChooser.ts).
  return {
    model: config.settings.model,
    agents: [...config.profiles.profiles.values()].map((p) => ({ name: p.name, description: p.description })),
    problems,
    trusted: vscode.workspace.isTrusted,
  };
}
