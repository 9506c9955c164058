import { candidatesFor } from '../../models/modelAliases';
import { splitAttachedContext } from '../../../shared/attachedContext';
import type { PromptCommand } from '../../config/promptFiles/promptCommand';
import { expandPrompt } from '../../config/promptFiles/expandPrompt';
import type { Profile } from '../../config/profiles/profile';

/** What a `/name args` message becomes: the prompt file's text, and what its front matter asks of the turn. */
export type CommandTurn =
  | { kind: 'command'; command: PromptCommand; prompt: string; agent?: string; model?: string; tools?: string[] }
  | { kind: 'refused'; error: string };

/** VS Code's built-in modes: here the supervisor answers them all. */
const BUILTIN_MODES = new Set(['ask', 'edit', 'agent']);

/**
 * A message that starts with `/name` runs the prompt file of that name (undefined: not a command,
 * or `//…`, which sends the text with one slash less). An unknown name is refused with the list of
 * commands rather than sent to the model as text: a typo should not go out as a request.
 */
export function slashCommandTurn(
  prompt: string,
  commands: readonly PromptCommand[],
  aliases: Readonly<Record<string, string | readonly string[]>>,
): CommandTurn | undefined {
  // Context attached in the panel follows the typed line: it is kept after the expanded text, not taken as arguments.
  const typed = splitAttachedContext(prompt).prompt;
  const attached = prompt.slice(typed.length);
  const m = /^\/([A-Za-z0-9][\w.-]*)(?:\s+([\s\S]*))?$/.exec(typed.trim());
  if (!m) return undefined;
  const command = commands.find((c) => c.name === m[1]);
  if (!command) {
    const names = commands.map((c) => `/${c.name}`).join(', ') || '(none)';
    return {
      kind: 'refused',
      error: `There is no command /${m[1]}. Commands: ${names}. A command is a prompt file: .github/prompts/NAME.prompt.md or .claude/commands/NAME.md. To send text that starts with a slash, start it with two (//).`,
    };
  }
  let text: string;
  try {
    text = expandPrompt(command, m[2] ?? '');
  } catch (error) {
    return { kind: 'refused', error: error instanceof Error ? error.message : String(error) };
  }
  if (!text.trim())
    return { kind: 'refused', error: `/${command.name} (${command.source}) has no text to send: write the prompt below its front matter.` };
  let model: string | undefined;
  if (command.model) {
    model = candidatesFor(command.model, aliases)[0];
    if (!model)
      return {
        kind: 'refused',
        error: `/${command.name} asks for the model "${command.model}" (${command.source}), which names no model here: use a model spec or an alias of subagents.modelAliases.`,
      };
  }
  const agent = command.agent && !BUILTIN_MODES.has(command.agent.toLowerCase()) ? command.agent : undefined;
  return {
    kind: 'command',
    command,
    prompt: text + attached,
    ...(agent ? { agent } : {}),
    ...(model ? { model } : {}),
    ...(command.tools ? { tools: command.tools } : {}),
  };
}

/** The turn's profile with only the tools both it and the command allow: a prompt file narrows, never widens. */
export function narrowedProfile(profile: Profile, tools: readonly string[] | undefined): Profile {
  if (!tools) return profile;
  return { ...profile, tools: profile.tools ? profile.tools.filter((t) => tools.includes(t)) : [...tools] };
}
