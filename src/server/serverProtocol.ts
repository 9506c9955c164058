import type { EngineSettings } from '../core/config/settings/engineSettings';

/** What the extension tells the agent-file server at start (initializationOptions) and on changes. */
export interface AgentServerOptions {
  home?: string;
  trusted?: boolean;
  settings?: Partial<Pick<EngineSettings, 'modelAliases' | 'userAgentFolders' | 'projectInstructions'>>;
  /** `subagents.agents` by scope: the settings' profiles take part in the checks across profiles. */
  agents?: { user?: unknown; workspace?: unknown; folder?: unknown };
  /** What models this window can use; absent: every provider counts as usable. */
  models?: { editorModels?: { vendor: string; family: string }[]; keys?: ('openai' | 'anthropic')[] };
}

/** The notification the extension sends when settings, trust or models change: params are AgentServerOptions. */
export const CONFIGURE = 'subagents/configure';
