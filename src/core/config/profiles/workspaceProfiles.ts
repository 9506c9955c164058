import { AgentFileCache, readAgentFileLayers } from '../agentFiles/agentFileLayers';
import { agentFolders } from '../agentFiles/agentFolders';
import type { AgentFileResult } from '../agentFiles/validateAgentFile';
import { DEFAULT_SETTINGS, type EngineSettings } from '../settings/engineSettings';
import { readProjectInstructions } from '../instructions/projectInstructions';
import { readSkills } from '../skills/readSkills';
import { readPromptFiles } from '../promptFiles/readPromptFiles';
import type { ModelAvailability } from '../../models/modelAliases';
import { builtinProfileLayer } from './builtinProfiles';
import { checkProfileSet } from './checkProfileSet';
import { mergeProfiles, type ProfileLayer } from './mergeProfiles';
import type { ProfileSet } from './profile';
import { resolveProfileModels } from './resolveProfileModels';

export interface WorkspaceProfileSources {
  /** The workspace folder, for agent files; undefined when none is open. */
  root: string | undefined;
  /** The user's home folder, for ~/.claude/agents and ~/.copilot/agents; undefined: not read. */
  home?: string;
  /** `subagents.agents` from the user's settings (extension only). */
  userAgents?: unknown;
  /** `subagents.agents` from the workspace's settings, with where it came from. */
  workspaceAgents?: { source: string; profiles: unknown }[];
  /** In an untrusted workspace only built-in and user profiles count. */
  trusted: boolean;
  /** modelAliases, userAgentFolders, projectInstructions (the defaults when absent). */
  settings?: Pick<EngineSettings, 'modelAliases' | 'userAgentFolders' | 'projectInstructions'>;
  /** What models can be used where the runs happen; absent: every provider counts as usable. */
  models?: ModelAvailability;
  /** Configured MCP servers by name. */
  mcpServers?: readonly string[];
  /** The language server's: texts of open files, and the results of files that did not change. */
  overlay?: ReadonlyMap<string, string>;
  cache?: AgentFileCache;
  readText?: (path: string) => string;
}

export interface WorkspaceProfiles extends ProfileSet {
  /** Every agent file read, accepted or not. */
  files: AgentFileResult[];
}

const EVERY_PROVIDER: ModelAvailability = { hasKey: () => true, keyHint: () => 'set its API key' };

/**
 * Every profile source merged by precedence, lowest first: built-in < ~/.claude/agents <
 * ~/.copilot/agents < user settings < the workspace's agent files (.claude/agents < .github/agents
 * < .vscode/agents) < workspace settings. Then models are resolved and the set is checked as a
 * whole; the project's instruction files are read alongside. An untrusted workspace contributes
 * nothing: no agent files, no settings, no instructions.
 */
export function loadWorkspaceProfiles(sources: WorkspaceProfileSources): WorkspaceProfiles {
  const settings = sources.settings ?? DEFAULT_SETTINGS;
  const folders = agentFolders({ root: sources.root, home: sources.home, user: settings.userAgentFolders, trusted: sources.trusted });
  const options = {
    context: { mcpServers: sources.mcpServers ?? [] },
    cache: sources.cache ?? new AgentFileCache(),
    ...(sources.overlay ? { overlay: sources.overlay } : {}),
    ...(sources.readText ? { readText: sources.readText } : {}),
  };
  const userFiles = readAgentFileLayers(folders.user, options);
  const workspaceFiles = readAgentFileLayers(folders.workspace, options);

  const layers: ProfileLayer[] = [builtinProfileLayer(), ...userFiles.layers];
  if (sources.userAgents !== undefined) layers.push({ source: 'user settings', profiles: sources.userAgents, setting: 'subagents.agents' });
  if (sources.trusted) {
    layers.push(...workspaceFiles.layers);
    for (const w of sources.workspaceAgents ?? []) layers.push({ ...w, setting: 'subagents.agents' });
  }
  const merged = mergeProfiles(layers);
  const models = resolveProfileModels(merged.profiles, settings.modelAliases, sources.models ?? EVERY_PROVIDER);
  const checked = checkProfileSet(models.profiles);
  const instructions =
    sources.trusted && sources.root
      ? readProjectInstructions(sources.root, settings.projectInstructions)
      : { instructions: [], problems: [] };
  const skills = readSkills({
    root: sources.root,
    home: sources.home,
    trusted: sources.trusted,
    ...(sources.overlay ? { overlay: sources.overlay } : {}),
  });
  const commands = readPromptFiles({ root: sources.root, home: sources.home, trusted: sources.trusted });
  return {
    profiles: checked.profiles,
    problems: [
      ...userFiles.problems,
      ...workspaceFiles.problems,
      ...merged.problems,
      ...models.problems,
      ...checked.problems,
      ...instructions.problems,
      ...skills.problems,
      ...commands.problems,
    ],
    projectInstructions: instructions.instructions,
    skills: skills.skills,
    commands: commands.commands,
    files: [...userFiles.files, ...workspaceFiles.files],
  };
}
