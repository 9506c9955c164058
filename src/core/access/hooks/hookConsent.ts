import type { DeclaredHooks } from '../../config/hooks/readHooks';
import type { HookDeclaration } from '../../config/hooks/hookDeclarations';

/** The hooks a session runs, and what it tells the user about the others. */
export interface HooksToRun {
  hooks: HookDeclaration[];
  /** Sentences for the top run's node: hooks that did not run and why, bad hook files. */
  notices: string[];
}

/** How the CLI allows the repository's hooks (the editor says its own way: hookConsentFlow.ts). */
export const CLI_HOW_TO_ALLOW = 'To run them, pass --allow-hooks.';

/**
 * Repository hooks (`.claude/settings*.json`, `.github/hooks`, the workspace's `subagents.hooks`) are
 * code someone else wrote that runs as the user, outside the sandbox: they run only when the user
 * agreed to these very declarations (`allowed`). The user's own hooks run as declared.
 */
export function hooksToRun(declared: DeclaredHooks, allowed: boolean, howToAllow: string = CLI_HOW_TO_ALLOW): HooksToRun {
  const notices = declared.problems.map((p) => `Hook problem: ${p}`);
  if (allowed) return { hooks: declared.hooks, notices };
  const withheld = declared.hooks.filter((h) => h.scope === 'repository');
  if (withheld.length > 0) notices.push(withheldNotice(withheld, howToAllow));
  return { hooks: declared.hooks.filter((h) => h.scope === 'user'), notices };
}

/** Names the files, the commands, and how to allow them (`howToAllow`: the CLI's flag, or the editor's command). */
export function withheldNotice(withheld: readonly HookDeclaration[], howToAllow: string = CLI_HOW_TO_ALLOW): string {
  const files = [...new Set(withheld.map((h) => h.source))].join(', ');
  const listed = withheld
    .slice(0, 5)
    .map((h) => `${h.event} "${h.command.slice(0, 120)}"`)
    .join('; ');
  const more = withheld.length > 5 ? ` and ${withheld.length - 5} more` : '';
  const count = `${withheld.length} hook${withheld.length === 1 ? '' : 's'}`;
  return (
    `${count} from this repository did not run (${files}): ${listed}${more}. ` +
    `They are commands someone else wrote, run as you outside the sandbox. ${howToAllow}`
  );
}
