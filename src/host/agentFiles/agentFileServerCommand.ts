/** An internal command (not in the palette): start the agent-file language server if it is not running. */
export const START_AGENT_FILE_SERVER = 'subagents.startAgentFileServer';
