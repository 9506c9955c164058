/**
 * The hook events we run, under Claude Code's names; VS Code's agent hooks use the same names, and
 * the Copilot CLI's `.github/hooks/*.json` writes them in lower camel case (`preToolUse`,
 * `userPromptSubmitted`): both spellings are read as the one event.
 */
export const HOOK_EVENTS = [
  'PreToolUse',
  'PostToolUse',
  'UserPromptSubmit',
  'SubagentStart',
  'SubagentStop',
  'Stop',
  'SessionStart',
] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

/** Events of those tools that we know and do not run (nothing here fires them): a note, not an error. */
const KNOWN_ELSEWHERE = ['Notification', 'PreCompact', 'SessionEnd', 'PermissionRequest', 'PermissionDenied', 'errorOccurred', 'agentStop'];

const ALIASES: Readonly<Record<string, HookEvent>> = {
  pretooluse: 'PreToolUse',
  posttooluse: 'PostToolUse',
  userpromptsubmit: 'UserPromptSubmit',
  userpromptsubmitted: 'UserPromptSubmit',
  subagentstart: 'SubagentStart',
  subagentstop: 'SubagentStop',
  stop: 'Stop',
  sessionstart: 'SessionStart',
};

/** The event a file's key names, or why it is not run. */
export function hookEventOf(name: string): { event: HookEvent } | { unknown: string } {
  const event = ALIASES[name.toLowerCase()];
  if (event) return { event };
  if (KNOWN_ELSEWHERE.some((known) => known.toLowerCase() === name.toLowerCase()))
    return { unknown: `"${name}" hooks are not run here: this product fires ${HOOK_EVENTS.join(', ')}` };
  return { unknown: `"${name}" is not a hook event; the events are ${HOOK_EVENTS.join(', ')}` };
}

/** Events whose matcher is tested against a tool name (the others: SessionStart's source, the subagent's type). */
export const TOOL_EVENTS: readonly HookEvent[] = ['PreToolUse', 'PostToolUse'];
