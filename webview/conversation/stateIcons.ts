import type { RunState, ToolCallNode } from '../../src/shared/runTree';

/** How a run or tool call state looks: one codicon and one word, shared by the tree and the chat. */

const RUN_ICONS: Record<RunState, string> = {
  running: 'codicon-loading codicon-modifier-spin',
  ok: 'codicon-pass',
  error: 'codicon-error',
  cancelled: 'codicon-circle-slash',
  timeout: 'codicon-watch',
  interrupted: 'codicon-debug-disconnect',
  max_steps: 'codicon-debug-step-over',
  budget: 'codicon-dashboard',
};

const RUN_LABELS: Record<RunState, string> = {
  running: 'running',
  ok: 'done',
  error: 'failed',
  cancelled: 'cancelled',
  timeout: 'timed out',
  interrupted: 'interrupted',
  max_steps: 'out of steps',
  budget: 'out of budget',
};

const TOOL_ICONS: Record<ToolCallNode['state'], string> = {
  running: 'codicon-loading codicon-modifier-spin',
  done: 'codicon-check',
  error: 'codicon-error',
};

export function runIconClass(state: RunState): string {
  return `codicon ${RUN_ICONS[state]} state-icon state-${state}`;
}

export function runStateLabel(state: RunState): string {
  return RUN_LABELS[state];
}

export function toolIconClass(state: ToolCallNode['state'], awaitingApproval: boolean): string {
  if (awaitingApproval) return 'codicon codicon-shield state-icon state-approval';
  return `codicon ${TOOL_ICONS[state]} state-icon tool-${state}`;
}
