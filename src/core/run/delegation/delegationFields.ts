// The fields the delegation tools share, described once: every model call carries these words,
// so each says what a model needs to fill the field in, and no more (issue 43 item 1).

export const TASK_TEXT = 'The whole task: what to do and what to report. The subagent sees nothing else of this conversation.';
export const CONTEXT_TEXT = 'Facts, paths and constraints it needs.';
export const CONTINUE_TEXT = "A threadId from an earlier result: continue that subagent's thread";
export const MAX_TOKENS_TEXT = 'Token cap per run, its own subagents included.';
export const BACKGROUND_TEXT = 'Return runIds at once; each result is announced when it ends.';
