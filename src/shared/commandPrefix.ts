/**
 * The first words of a command line, as "Always allow" offers them: the program and its
 * sub-command (`npm test`, `git status`), stopping at the first option, path, assignment or quote,
 * so the rule does not carry one call's arguments. The user can edit it before it is saved.
 */
export function commandPrefix(command: string): string {
  const words = command.trim().split(/\s+/);
  const out: string[] = [];
  for (const w of words) {
    if (out.length === 2 || /^[-'"$<>|&;(]|[/=\\`*?]/.test(w)) break;
    out.push(w);
  }
  return out.join(' ') || (words[0] ?? '');
}
