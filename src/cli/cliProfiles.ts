import type { EngineSettings } from '../core/engineSettings';
import { loadWorkspaceProfiles } from '../core/profiles/workspaceProfiles';
import type { ProfileProblem, ProfileSet } from '../core/profiles/profile';
import type { WorkspaceSettings } from './workspaceSettings';

/**
 * The CLI's profile layers: built-in < the workspace's agent files < its settings.json. (VS Code's
 * user settings live in a per-platform place the CLI does not read.)
 */
export function cliProfiles(config: WorkspaceSettings, root: string): ProfileSet {
  return loadWorkspaceProfiles({ root, trusted: true, workspaceAgents: [{ source: config.path, profiles: config.agents }] });
}

/** A profile problem as one sentence. */
export function describeProblem(p: ProfileProblem): string {
  const name = p.name ? `Agent "${p.name}"` : 'subagents.agents';
  return `${name} in ${p.source}${p.field ? `, field "${p.field}"` : ''}: ${p.message}.`;
}

/** Every model spec a request may use, so scripts are loaded (and checked) before the first run. */
export function specsInUse(settings: EngineSettings, profiles: ProfileSet): string[] {
  const specs = new Set<string>();
  if (settings.model) specs.add(settings.model);
  for (const p of profiles.profiles.values()) if (p.model) specs.add(p.model);
  return [...specs];
}
