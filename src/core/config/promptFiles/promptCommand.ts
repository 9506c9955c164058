/** A prompt file as a slash command: VS Code's `.github/prompts/NAME.prompt.md` or Claude Code's `.claude/commands/NAME.md`. */
export interface PromptCommand {
  /** What follows the slash: the file name without `.prompt.md` or `.md`. */
  name: string;
  /** For people: ".github/prompts/review.prompt.md", "~/.claude/commands/review.md". */
  source: string;
  path: string;
  format: 'vscode' | 'claude';
  description?: string;
  argumentHint?: string;
  /** VS Code's `agent` (or the older `mode`): an agent's id; `ask`, `edit` and `agent` mean the supervisor. */
  agent?: string;
  /** As written: a spec or a name resolved through subagents.modelAliases. */
  model?: string;
  /** VS Code's `tools`, in our names: the turn gets only those of its profile's tools that are listed here. */
  tools?: string[];
  /** Claude Code's `allowed-tools`: noted, never a widening (approvals stay subagents.approval). */
  allowedTools?: string[];
  /** The text sent, before its variables are filled in. */
  body: string;
}

/** A prompt file larger than this is not a command (a warning says so): its text is sent whole. */
export const MAX_PROMPT_FILE_BYTES = 64 * 1024;

/** A command name: letters, digits, dots, dashes and underscores; never a path. */
export const COMMAND_NAME = /^[A-Za-z0-9][\w.-]{0,63}$/;
