import { homedir } from 'node:os';
import { KEY_VARIABLES } from '../core/models/keyVariables';
import type { ModelAvailability } from '../core/models/modelAliases';
import { loadWorkspaceProfiles, type WorkspaceProfiles } from '../core/config/profiles/workspaceProfiles';
import type { WorkspaceSettings } from './workspaceSettings';

/** What the CLI can use: no editor models, and the keys in the environment. */
export function environmentModels(env: NodeJS.ProcessEnv = process.env): ModelAvailability {
  return {
    hasKey: (provider) => Boolean(env[KEY_VARIABLES[provider]]?.trim()),
    keyHint: (provider) => `set ${KEY_VARIABLES[provider]}`,
  };
}

/**
 * The CLI's profile layers: built-in < ~/.claude/agents < ~/.copilot/agents < the workspace's
 * agent files < its settings.json. (VS Code's user settings live in a per-platform place the CLI
 * does not read.) The user named this folder on the command line: it counts as trusted.
 */
export function cliProfiles(
  config: WorkspaceSettings,
  root: string,
  env: NodeJS.ProcessEnv = process.env,
  mcpServers: readonly string[] = [],
): WorkspaceProfiles {
  return loadWorkspaceProfiles({
    root,
    home: env['HOME'] || homedir(),
    trusted: true,
    workspaceAgents: [{ source: config.path, profiles: config.agents }],
    settings: config.settings,
    models: environmentModels(env),
    mcpServers,
  });
}
