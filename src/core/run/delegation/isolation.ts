import { errorText } from '../../../shared/errorText';
import { ZERO_USAGE } from '../../../shared/usage';
import type { Profile } from '../../config/profiles/profile';
import { isolatedWorkspace } from '../../changes/worktrees/isolatedWorkspace';
import { worktreeReport } from '../../changes/worktrees/worktreeReport';
import type { RunHandle } from './runHandle';
import type { RunEnding } from './runWork';
import type { Session } from './session';

/**
 * Runs `work` where the profile says: in the shared workspace, or, for `isolation: "worktree"`,
 * in a git worktree of its own (src/core/changes/worktrees/), with the session's workspace (and so every
 * tool, and every run it delegates to) confined there. At the end the worktree becomes a pending
 * change for the user to apply or discard, or goes when nothing changed; the parent reads which.
 */
export async function inIsolation(
  session: Session,
  run: RunHandle,
  profile: Profile,
  work: (session: Session) => Promise<RunEnding>,
): Promise<RunEnding> {
  if (profile.isolation !== 'worktree') return work(session);
  const refuse = (why: string): RunEnding => ({
    status: 'error',
    output: '',
    usage: ZERO_USAGE,
    error: `The "${profile.name}" profile runs in a git worktree (isolation: worktree), but ${why}.`,
  });
  if (!session.worktrees) return refuse('this host keeps no thread storage to put worktrees in');
  let handle;
  try {
    handle = await session.worktrees.create({
      workspaceRoot: session.workspace.root,
      runId: run.runId,
      threadId: run.threadId,
      agent: run.agent,
    });
  } catch (error) {
    return refuse(errorText(error));
  }
  const confined: Session = {
    ...session,
    workspace: isolatedWorkspace(session.workspace, handle.root),
    isolation: { root: handle.root, writable: handle.writable, readyAt: handle.readyAt },
  };
  const ending = await work(confined);
  // Background children work in the same worktree: it is finished once they are done.
  await Promise.allSettled(run.allChildren().map((c) => c.handle.done));
  let report: string;
  try {
    report = worktreeReport(await session.worktrees.finish(handle.manifest), handle.manifest.branch);
  } catch (error) {
    report = `This run worked in its own git worktree (${handle.manifest.path}, branch ${handle.manifest.branch}); its end state could not be recorded: ${errorText(error)}.`;
  }
  return { ...ending, output: ending.output ? `${ending.output}\n\n${report}` : report };
}
