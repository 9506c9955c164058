/** A place where agents are defined, as "Configure Agents" offers it. */
export type AgentPlace =
  | { place: 'settings'; scope: 'user' | 'workspace'; label: string; detail: string; path?: string; line?: number }
  | { place: 'file'; label: string; detail: string; path: string }
  | { place: 'new'; label: string; detail: string };

export interface AgentPlacesInput {
  /** Undefined when no folder is open. */
  root: string | undefined;
  /** The workspace settings file, when there is one: its path (absolute) and its text. */
  workspaceSettings?: { path: string; label: string; line: number | undefined };
  /** Agent files in the workspace: workspace-relative and absolute paths. */
  agentFiles: { rel: string; path: string }[];
}

/**
 * What "Configure Agents" offers: the agent files there are, the `subagents.agents` of the
 * workspace's settings (at its line) and of the user's, and a new agent file in .vscode/agents/.
 * Pure, so the offer is tested without an editor.
 */
export function agentPlaces(input: AgentPlacesInput): AgentPlace[] {
  const places: AgentPlace[] = input.agentFiles.map((f) => ({
    place: 'file',
    label: `$(file) ${f.rel}`,
    detail: 'An agent file of this workspace',
    path: f.path,
  }));
  if (input.root) {
    places.push({
      place: 'new',
      label: '$(new-file) New agent file in .vscode/agents/…',
      detail: input.agentFiles.some((f) => f.rel.startsWith('.vscode/agents/'))
        ? 'Another agent, as a Markdown file with front matter'
        : 'Creates .vscode/agents/ with an agent from a template: one file per agent, shared with the project',
    });
    const ws = input.workspaceSettings;
    places.push({
      place: 'settings',
      scope: 'workspace',
      label: `$(settings) "subagents.agents" in ${ws?.label ?? '.vscode/settings.json'}`,
      detail: ws?.line ? "Agents defined in this workspace's settings" : 'Not set there yet: opens the workspace settings',
      ...(ws ? { path: ws.path } : {}),
      ...(ws?.line ? { line: ws.line } : {}),
    });
  }
  places.push({
    place: 'settings',
    scope: 'user',
    label: '$(account) "subagents.agents" in your user settings',
    detail: 'Your own agents, in every workspace',
  });
  return places;
}
