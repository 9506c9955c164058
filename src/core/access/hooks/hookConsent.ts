import type { DeclaredHooks } from '../../config/hooks/readHooks';
import type { HookDeclaration } from '../../config/hooks/hookDeclarations';

/** The hooks a session runs, and what it tells the user about the others. */
export interface HooksToRun {
  hooks: HookDeclaration[];
  /** Sentences for the top run's node: hooks that did not run and why, bad hook files. */
  notices: string[];
}

/**
 * Repository hooks (`.claude/settings*.json`, `.github/hooks`, the workspace's `subagents.hooks`) are
 * code someone else wrote that runs as the user, outside the sandbox: they run only when the user
 * agreed to these very declarations (`allowed`). The user's own hooks run as declared.
 */
export function hooksToRun(declared: DeclaredHooks, allowed: boolean): HooksToRun {
  const notices = declared.problems.map((p) => `Hook problem: ${p}`);
  if (allowed) return { hooks: declared.hooks, notices };
  const withheld = declared.hooks.filter((h) => h.scope === 'repository');
  if (withheld.length > 0) notices.push(withheldNotice(withheld));
  return { hooks: declared.hooks.filter((h) => h.scope === 'user'), notices };
}

/** Names the commands and both ways to allow them: the CLI's flag and the editor's prompt. */
export function withheldNotice(withheld: readonly HookDeclaration[]): string {
  const listed = withheld
    .slice(0, 5)
    .map((h) => `${h.event} "${h.command.slice(0, 120)}" (${h.source})`)
    .join('; ');
  const more = withheld.length > 5 ? ` and ${withheld.length - 5} more` : '';
  return (
    `${withheld.length} hook${withheld.length === 1 ? '' : 's'} from this repository did not run: ${listed}${more}. ` +
    'They are commands someone else wrote, run as you outside the sandbox. To run them, pass --allow-hooks (CLI), ' +
    'or choose "Allow hooks" when the editor asks (it asks again whenever the hook files change).'
  );
}
