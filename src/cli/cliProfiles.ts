import { loadWorkspaceProfiles } from '../core/profiles/workspaceProfiles';
import type { ProfileSet } from '../core/profiles/profile';
import type { WorkspaceSettings } from './workspaceSettings';

/**
 * The CLI's profile layers: built-in < the workspace's agent files < its settings.json. (VS Code's
 * user settings live in a per-platform place the CLI does not read.)
 */
export function cliProfiles(config: WorkspaceSettings, root: string): ProfileSet {
  return loadWorkspaceProfiles({ root, trusted: true, workspaceAgents: [{ source: config.path, profiles: config.agents }] });
}
