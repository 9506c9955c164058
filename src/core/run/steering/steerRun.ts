import type { MessageSender, RunHandle } from '../delegation/runHandle';

/**
 * Steering: a message to a run while it works, from the user (the steer box on its node) or from
 * its parent's model (background_runs' message). The run's model sees it before its next call, as a user
 * turn that says who sent it; a run that was about to end takes one more turn for it. A run whose
 * work is done says so, and how to follow up.
 */

/** The user turn the run's model gets. */
export function steerForModel(from: MessageSender, text: string): string {
  const who =
    from === 'user'
      ? '[A message from the user, who is watching you work. It comes from the user directly: where it differs from your task, it takes precedence.]'
      : '[A message from your supervisor, the agent that gave you this task, sent while you work on it.]';
  return `${who}\n${text}`;
}

/** Delivers the message; undefined when it was taken, otherwise why not, in words for `from`. */
export function steerRun(run: RunHandle, from: MessageSender, text: string): string | undefined {
  if (run.message(from, text, steerForModel(from, text))) return undefined;
  return finishedText(run, from);
}

function finishedText(run: RunHandle, from: MessageSender): string {
  const status = run.result ? ` (status ${run.result.status})` : '';
  const ended =
    run.signal.aborted && !run.result
      ? 'is stopping'
      : run.result
        ? `has already finished${status}`
        : 'has finished its work and is ending';
  if (from === 'parent') {
    return (
      `Run ${run.runId} ("${run.agent}") ${ended}, so it cannot take messages. ` +
      `To follow up, start it again with continueThreadId "${run.threadId}" (delegate_task): it continues with its history.`
    );
  }
  return `The "${run.agent}" run ${ended}, so it can no longer take messages. Ask in the conversation instead: the supervisor can continue its thread (${run.threadId}).`;
}
