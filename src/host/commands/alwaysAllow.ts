import type { ApprovalRequest } from '../../core/ports';

/** The panel's "Always allow `<prefix>`" as the host carries it out. */
export interface AlwaysAllowDeps {
  approvals: { resolve(approvalId: string, decision: 'approved' | 'denied'): boolean; waiting(): ApprovalRequest[] };
  /** Asks the user (a modal); true when they chose `action`. */
  confirm(message: string, action: string, detail: string): Promise<boolean>;
  /** Adds the prefix to the user setting `subagents.autoApproveCommands` (once). */
  allowCommand(prefix: string): Promise<void>;
}

const OPERATORS = /[;&|<>$`()\n\r\\]/;

/**
 * The prefix of a waiting command's approval, checked: plain words, and the first words of that
 * command (the webview offers them and the user may shorten or edit them). Throws a sentence.
 */
export function checkedPrefix(request: ApprovalRequest | undefined, prefix: string): string {
  if (!request) throw new Error('That approval is no longer waiting: its run has already moved on.');
  const command = request.tool === 'run_command' ? (request.input as { command?: unknown } | null)?.command : undefined;
  if (typeof command !== 'string') throw new Error('"Always allow" is for commands; approve this request once instead.');
  const words = prefix.trim().split(/\s+/);
  if (OPERATORS.test(prefix))
    throw new Error(`"${prefix.trim()}" is not a plain command prefix: leave out operators and quotes such as ; & | > $ and backslashes.`);
  const first = command.trim().split(/\s+/).slice(0, words.length);
  if (first.join(' ') !== words.join(' '))
    throw new Error(`"${prefix.trim()}" is not how this command starts ("${command.trim().slice(0, 80)}"): a prefix is its first words.`);
  return words.join(' ');
}

/**
 * Confirms, adds the prefix to the user's allowlist, then approves this request once. Nothing is
 * added when the user says no (the request keeps waiting for Approve once or Deny). Returns the
 * prefix as added, or undefined when the user said no.
 */
export async function alwaysAllow(deps: AlwaysAllowDeps, approvalId: string, prefix: string): Promise<string | undefined> {
  const waiting = () => deps.approvals.waiting().find((r) => r.approvalId === approvalId);
  const words = checkedPrefix(waiting(), prefix);
  const yes = await deps.confirm(
    `Let agents run commands that start with "${words}" without asking?`,
    'Always Allow',
    `"${words}" is added to subagents.autoApproveCommands in your user settings, for every workspace. A command line that chains, pipes or redirects still asks unless each part is allowed. You can remove it there at any time.`,
  );
  if (!yes) return undefined;
  await deps.allowCommand(words);
  if (!deps.approvals.resolve(approvalId, 'approved')) {
    throw new Error(`"${words}" is now allowed, but this approval is no longer waiting: its run has already moved on.`);
  }
  return words;
}
