import type { PromptCommand } from './promptCommand';

/**
 * The text a command sends: its body with the arguments in place. Claude Code's `$ARGUMENTS`
 * (everything after the name) and `$1`…`$9` (one word each; quotes keep words together); VS
 * Code's `${input:name}` and `${input:name:placeholder}` take `name=value` from the arguments,
 * else the arguments' other text. A body that uses no variable gets the arguments after it, as
 * Claude Code does. Throws when a `${input:…}` has no value, saying how to give it.
 */
export function expandPrompt(command: PromptCommand, args: string): string {
  const words = splitWords(args);
  const named = new Map<string, string>();
  const rest: string[] = [];
  for (const w of words) {
    const m = /^([A-Za-z_][\w-]*)=(.*)$/s.exec(w);
    if (m && command.body.includes(`\${input:${m[1]}`)) named.set(m[1]!, m[2]!);
    else rest.push(w);
  }
  const plain = named.size > 0 ? rest.join(' ') : args.trim();
  let used = false;
  let text = command.body.replace(/\$\{input:([A-Za-z_][\w-]*)(?::([^}]*))?\}/g, (_, name: string, placeholder?: string) => {
    used = true;
    const v = named.get(name) ?? (plain || undefined);
    if (v === undefined)
      throw new Error(
        `/${command.name} needs a value for "${name}"${placeholder ? ` (${placeholder})` : ''}: write /${command.name} ${name}=…`,
      );
    return v;
  });
  text = text
    .replace(/\$ARGUMENTS\b/g, () => ((used = true), plain))
    .replace(/\$([1-9])(?!\d)/g, (_, n: string) => ((used = true), words[Number(n) - 1] ?? ''));
  if (!used && plain) text = `${text}\n\n${plain}`;
  return text;
}

/** Words split at spaces; "double" or 'single' quotes keep spaces inside one word. */
function splitWords(text: string): string[] {
  return [...text.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]!);
}
