import * as vscode from 'vscode';
import type { ApprovalDecision } from '../../shared/events';
import type { PanelViewState } from '../panel/panelView';
import { ApprovalPrompts } from './approvalPrompts';
import { activityStatus, type WindowActivity } from './windowActivity';

export interface ActivityIndicatorDeps {
  activity: WindowActivity;
  resolve(approvalId: string, decision: ApprovalDecision): boolean;
  view: PanelViewState;
  /** The conversation the panel shows (a top-level thread id). */
  openThreadId(): string | undefined;
  /** Opens the panel at a conversation. */
  show(rootThreadId: string): Promise<void>;
}

/**
 * The window's signs of work outside the panel: a status bar item while runs work or an approval
 * waits (a click opens the panel), and for an approval the panel does not show, a badge on the
 * view and a notification (ApprovalPrompts).
 */
export function showActivity(deps: ActivityIndicatorDeps): vscode.Disposable {
  const { activity } = deps;
  const item = vscode.window.createStatusBarItem('subagents.activity', vscode.StatusBarAlignment.Left, 50);
  item.name = 'Subagents';
  const refresh = () => {
    const status = activityStatus(activity.snapshot());
    if (!status) return item.hide();
    item.text = status.text;
    item.tooltip = status.tooltip;
    item.accessibilityInformation = { label: status.tooltip, role: 'button' };
    item.backgroundColor = status.warning ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    item.command = {
      command: 'subagents.openPanel',
      title: 'Open the Subagents panel',
      arguments: status.threadId ? [status.threadId] : [],
    };
    item.show();
  };
  const prompts = new ApprovalPrompts({
    activity,
    panelVisible: () => deps.view.visible,
    panelShows: (root) => deps.view.visible && deps.openThreadId() === root,
    notify: (message, buttons) => vscode.window.showWarningMessage(message, ...buttons),
    resolve: deps.resolve,
    show: deps.show,
    setBadge: (count, tooltip) => deps.view.setBadge(count, tooltip),
    warn: (message) => void vscode.window.showWarningMessage(message),
  });
  const offChange = activity.onChange(refresh);
  const visibility = deps.view.onDidChangeVisibility(() => prompts.panelChanged());
  return {
    dispose: () => {
      offChange();
      visibility.dispose();
      prompts.dispose();
      item.dispose();
    },
  };
}
