import { readAgentFiles } from './agentFiles';
import { builtinProfileLayer } from './builtinProfiles';
import { mergeProfiles, type ProfileLayer } from './mergeProfiles';
import type { ProfileSet } from './profile';

export interface WorkspaceProfileSources {
  /** The workspace folder, for agent files; undefined when none is open. */
  root: string | undefined;
  /** `subagents.agents` from the user's settings (extension only). */
  userAgents?: unknown;
  /** `subagents.agents` from the workspace's settings, with where it came from. */
  workspaceAgents?: { source: string; profiles: unknown }[];
  /** In an untrusted workspace only built-in and user profiles count. */
  trusted: boolean;
}

export interface WorkspaceProfiles extends ProfileSet {
  /** What imports of Claude Code / Copilot agent files left out, each a sentence. */
  notes: string[];
}

/**
 * Every profile source merged by DESIGN section 4's precedence: built-in < user settings <
 * agent files in the workspace (imports first, our own folder last) < workspace settings.
 */
export function loadWorkspaceProfiles(sources: WorkspaceProfileSources): WorkspaceProfiles {
  const layers: ProfileLayer[] = [builtinProfileLayer()];
  if (sources.userAgents !== undefined) layers.push({ source: 'user settings', profiles: sources.userAgents });
  if (!sources.trusted) return { ...mergeProfiles(layers), notes: [] };
  const files = sources.root ? readAgentFiles(sources.root) : { layers: [], problems: [], notes: [] };
  layers.push(...files.layers, ...(sources.workspaceAgents ?? []));
  const merged = mergeProfiles(layers);
  return { profiles: merged.profiles, problems: [...files.problems, ...merged.problems], notes: files.notes };
}
