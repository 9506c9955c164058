/**
 * Tools of earlier versions under their names of today. Threads, agent files and settings written
 * then still name them: a profile that lists an old name gets its new tools (with a note in an
 * agent file), and an old thread's calls still read as what they did.
 */
export interface RenamedTool {
  /** The tools that do it now. */
  tools: readonly string[];
  /** How, in a few words, for the note. */
  how: string;
}

export const RENAMED_TOOLS: Readonly<Record<string, RenamedTool>> = {
  subagent_start: { tools: ['delegate_task'], how: 'delegate_task with background: true' },
  subagent_status: { tools: ['background_runs'], how: 'background_runs with action "status"' },
  subagent_await: { tools: ['background_runs'], how: 'background_runs with action "wait"' },
  subagent_cancel: { tools: ['background_runs'], how: 'background_runs with action "cancel"' },
  subagent_message: { tools: ['background_runs'], how: 'background_runs with action "message"' },
};

/** The renamed tool of this old name, if it is one. */
export function renamedTool(name: string): RenamedTool | undefined {
  return Object.hasOwn(RENAMED_TOOLS, name) ? RENAMED_TOOLS[name] : undefined;
}
