import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { revertRun, type RevertResult } from '../core/changes/revertRun';
import { loadRun } from '../core/changes/runChanges';
import { threadSnapshots } from '../core/changes/threadSnapshots';
import { DEFAULT_SETTINGS } from '../core/engineSettings';
import { nodeWorkspace } from '../core/nodeAdapters/nodeWorkspace';
import { JsonlThreadStore } from '../core/threads/jsonlThreadStore';
import type { WorktreeManifest } from '../core/worktrees/worktreeManifest';
import { Worktrees } from '../core/worktrees/worktrees';
import type { RunNode } from '../shared/runTree';
import type { Command } from './cliArgs';
import { EXIT, UsageError } from './cliError';
import { stderrLogger, type CliIo } from './cliIo';
import { terminalPrompt } from './terminalPrompt';
import { terminalSafe } from './terminalText';

type RunChangesCommand = Extract<Command, { name: 'threads revert' | 'threads apply' | 'threads discard' }>;

/** The run and its thread, found through the index; an unknown run is a usage error (exit 2). */
async function findRun(store: JsonlThreadStore, cmd: RunChangesCommand): Promise<{ threadId: string; run: RunNode }> {
  const dirExists = (await stat(cmd.storage).catch(() => undefined))?.isDirectory() === true;
  const threadId = dirExists ? await store.threadOfRun(cmd.runId) : undefined;
  const run = threadId ? await loadRun(store, threadId, cmd.runId) : undefined;
  if (!threadId || !run) throw new UsageError(`There is no run "${cmd.runId}" in ${cmd.storage}. Run ids (r_…) are listed by "subagents threads show ID".`);
  return { threadId, run };
}

/** `subagents threads revert|apply|discard RUN`: one run's file changes. */
export async function runChangesCommand(cmd: RunChangesCommand, io: CliIo): Promise<number> {
  const logger = stderrLogger(io);
  const store = new JsonlThreadStore({ dir: cmd.storage, logger });
  try {
    const { threadId, run } = await findRun(store, cmd);
    const worktrees = new Worktrees(join(cmd.storage, 'worktrees'));
    const pending = await worktrees.get(cmd.runId);
    if (cmd.name !== 'threads revert') {
      if (pending?.state !== 'pending') throw new UsageError(`Run "${cmd.runId}" has no changes waiting in a worktree (it did not work in one, or they were applied or discarded already).`);
      return cmd.name === 'threads apply' ? await apply(io, cmd, worktrees, pending) : await discard(io, cmd, worktrees, pending);
    }
    if (pending) throw new UsageError(`Run "${cmd.runId}" worked in a git worktree, so its changes are not in the workspace: use "subagents threads apply ${cmd.runId}" or "subagents threads discard ${cmd.runId}".`);
    const snapshots = threadSnapshots({ threadsDir: cmd.storage, store, maxMB: () => DEFAULT_SETTINGS['snapshots.maxMB'], logger });
    const terminal = terminalPrompt({ input: io.stdin, output: io.stderr });
    const prunedNote = await snapshots.prunedNote(threadId);
    const result = await revertRun({
      workspace: nodeWorkspace({ root: cmd.workspace }),
      snapshots,
      files: run.changes?.files ?? [],
      dryRun: cmd.dryRun,
      ...(prunedNote ? { prunedNote } : {}),
      confirmOverlap: async (paths) => {
        if (cmd.yes) return true;
        const answer = await terminal.ask(`Another command ran at the same time as these changes, so run ${cmd.runId} may not have made them: ${paths.join(', ')}. Revert them too? [y/N] `, new AbortController().signal);
        return /^y(es)?$/i.test(answer?.trim() ?? '');
      },
    });
    print(io, cmd, result);
    return result.skipped.length > 0 ? EXIT.runFailed : EXIT.ok;
  } finally {
    store.dispose();
  }
}

async function apply(io: CliIo, cmd: RunChangesCommand, worktrees: Worktrees, pending: WorktreeManifest): Promise<number> {
  // Into the workspace the run started from, whatever folder this command runs in.
  const result = (await worktrees.apply(cmd.runId, nodeWorkspace({ root: pending.workspaceRoot })))!;
  if (cmd.json) io.stdout.write(`${JSON.stringify(result)}\n`);
  else {
    for (const path of result.applied) io.stdout.write(terminalSafe(`Applied ${path}\n`));
    for (const { path, reason } of result.conflicts) io.stdout.write(terminalSafe(`Conflict in ${path}: ${reason}\n`));
    if (result.keptBranch) io.stdout.write(`The run's version of every file stays on branch ${result.keptBranch}.\n`);
  }
  return result.conflicts.length > 0 ? EXIT.runFailed : EXIT.ok;
}

async function discard(io: CliIo, cmd: RunChangesCommand, worktrees: Worktrees, pending: WorktreeManifest): Promise<number> {
  await worktrees.discard(pending);
  if (cmd.json) io.stdout.write(`${JSON.stringify({ discarded: cmd.runId, branch: pending.branch })}\n`);
  else io.stdout.write(`Discarded the changes of run ${cmd.runId}: its worktree and branch ${pending.branch} are gone.\n`);
  return EXIT.ok;
}

function print(io: CliIo, cmd: Extract<RunChangesCommand, { name: 'threads revert' }>, result: RevertResult): void {
  if (cmd.json) {
    io.stdout.write(`${JSON.stringify(result)}\n`);
    return;
  }
  const verb = cmd.dryRun ? 'Would revert' : 'Reverted';
  for (const path of result.reverted) io.stdout.write(terminalSafe(`${verb} ${path}\n`));
  for (const { path, reason } of result.skipped) io.stdout.write(terminalSafe(`Skipped ${path}: ${reason}\n`));
  if (result.reverted.length === 0 && result.skipped.length === 0) io.stdout.write(`Run ${cmd.runId} changed no files.\n`);
}
