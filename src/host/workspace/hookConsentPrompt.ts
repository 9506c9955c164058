import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { HookConsentFlow, type HookConsentAnswer } from '../../core/access/hooks/hookConsentFlow';
import { hookScripts, readHooks, type SettingsHooks } from '../../core/config/hooks/readHooks';
import type { HookDeclaration } from '../../core/config/hooks/hookDeclarations';

/** Workspace state (the editor's storage for this workspace, not its settings): the fingerprint allowed. */
const KEY = 'subagents.hooksAllowed';
export const ASK_AGAIN_COMMAND_TITLE = 'Subagents: Ask Again About Repository Hooks';
const ALLOW: vscode.MessageItem = { title: 'Allow' };
const SHOW: vscode.MessageItem = { title: 'Show' };
const NOT_NOW: vscode.MessageItem = { title: 'Not now', isCloseAffordance: true };

/**
 * The editor's side of the consent to the repository's hooks (access/hooks/hookConsentFlow.ts): a
 * modal that lists each command and its file, the answer in workspace state, "Show" opening the
 * files. Settings are never asked whether the hooks are allowed, so a workspace cannot pre-approve.
 */
export function hookConsentPrompt(state: vscode.Memento, root: string | undefined): HookConsentFlow {
  return new HookConsentFlow({
    read: () => {
      const declared = readHooks(root ?? os.tmpdir(), settingsHooks(root !== undefined));
      // With no folder open there is no repository: only the user's hooks (never a temp folder's files).
      return root ? declared : { ...declared, hooks: declared.hooks.filter((h) => h.scope === 'user'), repositoryFingerprint: '' };
    },
    trusted: () => root !== undefined && vscode.workspace.isTrusted,
    remembered: () => state.get<string>(KEY),
    remember: async (fingerprint) => state.update(KEY, fingerprint),
    ask: (repository) => ask(repository),
    show: async (repository) => {
      if (root) await show(root, repository);
    },
    howToAllow: `To be asked again, run "${ASK_AGAIN_COMMAND_TITLE}" from the Command Palette and choose "Allow" (the CLI runs them with --allow-hooks).`,
  });
}

async function ask(repository: readonly HookDeclaration[]): Promise<HookConsentAnswer> {
  const n = repository.length;
  const detail = repository.map((h) => `${h.event}${h.matcher ? ` (${h.matcher})` : ''}: ${h.command}\n    from ${h.source}`).join('\n');
  const answer = await vscode.window.showWarningMessage(
    `This workspace declares ${n} hook${n === 1 ? '' : 's'}: commands that run while agents work, in the OS sandbox as agents' commands do (without one, as you). Run ${n === 1 ? 'it' : 'them'}?`,
    {
      modal: true,
      detail: `${detail}\n\n"Show" opens the files; you are asked again whenever these hooks or their scripts change.`,
    },
    ALLOW,
    SHOW,
    NOT_NOW,
  );
  return answer === ALLOW ? 'allow' : answer === SHOW ? 'show' : answer === NOT_NOW ? 'notNow' : undefined;
}

/** Opens each hook file and each workspace script a command names; a setting opens the settings. */
async function show(root: string, repository: readonly HookDeclaration[]): Promise<void> {
  const files = new Set<string>();
  let settings = false;
  for (const h of repository) {
    if (h.source.startsWith('"subagents.hooks"')) settings = true;
    else files.add(h.source);
    for (const script of hookScripts(root, h.command)) files.add(script);
  }
  for (const file of files) {
    const full = path.join(root, file);
    if (fs.existsSync(full)) await vscode.window.showTextDocument(vscode.Uri.file(full), { preview: false });
  }
  if (settings) await vscode.commands.executeCommand('workbench.action.openWorkspaceSettingsFile');
}

/** `subagents.hooks` by scope: the user's runs as declared, a workspace's needs consent. */
function settingsHooks(hasFolder: boolean): SettingsHooks[] {
  const seen = vscode.workspace.getConfiguration('subagents').inspect<unknown>('hooks');
  const out: SettingsHooks[] = [];
  if (seen?.globalValue !== undefined)
    out.push({ value: seen.globalValue, scope: 'user', source: '"subagents.hooks" in your user settings' });
  if (hasFolder && seen?.workspaceValue !== undefined)
    out.push({ value: seen.workspaceValue, scope: 'repository', source: '"subagents.hooks" in the workspace settings' });
  if (hasFolder && seen?.workspaceFolderValue !== undefined)
    out.push({ value: seen.workspaceFolderValue, scope: 'repository', source: '"subagents.hooks" in the folder settings' });
  return out;
}

/** The palette command: forgets the answer, asks now, and says what came of it. */
export async function askAgainAboutHooks(flow: HookConsentFlow): Promise<void> {
  const outcome = await flow.askAgain();
  const said: Record<typeof outcome, string> = {
    allowed: "The repository's hooks run from the next request on, until they or their scripts change.",
    declined: "The repository's hooks do not run in this window. Run this command again to be asked again.",
    none: 'This workspace declares no hooks (.claude/settings.json, .claude/settings.local.json, .github/hooks/*.json, "subagents.hooks").',
    untrusted: 'This workspace is not trusted: its hooks never run. Trust it (Manage Workspace Trust), then run this command again.',
  };
  void vscode.window.showInformationMessage(said[outcome]);
}
