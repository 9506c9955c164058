import * as vscode from 'vscode';
import { z } from 'zod';
import { engineSettingsSchema, type EngineSettings } from '../core/engineSettings';
import { describeProfileProblem } from '../core/profiles/describeProfileProblem';
import { loadWorkspaceProfiles } from '../core/profiles/workspaceProfiles';
import type { ProfileSet } from '../core/profiles/profile';
import type { PanelConfig } from '../shared/protocol';

/** The settings as the engine and the panel use them, with everything wrong said in sentences. */
export interface HostConfiguration {
  settings: EngineSettings;
  profiles: ProfileSet;
  problems: string[];
}

const SETTING_FIELDS = ['model', 'maxDepth', 'maxConcurrency', 'maxActiveChildren', 'supervisor', 'approval', 'autoApproveCommands'] as const;

/**
 * Reads `subagents.*` and the workspace's agent files. A bad value falls back to its default with a
 * problem naming the setting; profiles are merged by DESIGN section 4's precedence, and in an
 * untrusted workspace only the user's own settings count (workspace profiles and model settings
 * could run code or send data).
 */
export function readConfiguration(trusted: boolean, root: string | undefined): HostConfiguration {
  const section = vscode.workspace.getConfiguration('subagents');
  const problems: string[] = [];
  const raw: Record<string, unknown> = {};
  for (const field of SETTING_FIELDS) {
    const inspected = section.inspect(field);
    const value = trusted ? section.get(field) : inspected?.globalValue;
    if (value === undefined) continue;
    const checked = engineSettingsSchema.shape[field].safeParse(value);
    if (checked.success) raw[field] = checked.data;
    else problems.push(`Setting "subagents.${field}" is invalid (${z.prettifyError(checked.error).replace(/\n/g, ' ')}); using the default.`);
  }
  const settings = engineSettingsSchema.parse(raw);

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
    problems.push(`${describeProfileProblem(p)} The other agents still work.`);
  }
  return { settings, profiles, problems };
}

export function panelConfig(config: HostConfiguration, root: string | undefined): PanelConfig {
  const problems = [...config.problems];
  if (!root) problems.push('No folder is open: open a folder so the agents have a workspace to work in.');
  // No model is not a problem to list: the panel offers the models it finds instead (modelChooser.ts).
  return {
    model: config.settings.model,
    agents: [...config.profiles.profiles.values()].map((p) => ({ name: p.name, description: p.description })),
    problems,
    trusted: vscode.workspace.isTrusted,
  };
}
