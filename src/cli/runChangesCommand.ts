import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { RunChangeActions, RunChangeError, type RecordedRevert } from '../core/changes/attribution/runChangeActions';
import { threadSnapshots } from '../core/changes/attribution/threadSnapshots';
import { DEFAULT_SETTINGS } from '../core/config/settings/engineSettings';
import { nodeWorkspace } from '../core/engine/nodeWorkspace';
import { JsonlThreadStore } from '../core/storage/threads/jsonlThreadStore';
import { Worktrees } from '../core/changes/worktrees/worktrees';
import type { Command } from './cliArgs';
import { EXIT, UsageError } from './cliError';
import { stderrLogger, type CliIo } from './cliIo';
import { terminalPrompt } from './terminalPrompt';
import { jsonForTerminal, terminalSafe } from './terminalText';

type RunChangesCommand = Extract<Command, { name: 'threads revert' | 'threads apply' | 'threads discard' }>;

/** `subagents threads revert|apply|discard RUN`: one run's file changes (RunChangeActions, as the panel does). */
export async function runChangesCommand(cmd: RunChangesCommand, io: CliIo): Promise<number> {
  const logger = stderrLogger(io);
  const store = new JsonlThreadStore({ dir: cmd.storage, logger });
  try {
    // The run's thread, through the index: an unknown run is a usage error (exit 2).
    const dirExists = (await stat(cmd.storage).catch(() => undefined))?.isDirectory() === true;
    const threadId = dirExists ? await store.threadOfRun(cmd.runId) : undefined;
    if (!threadId)
      throw new UsageError(`There is no run "${cmd.runId}" in ${cmd.storage}. Run ids (r_…) are listed by "subagents threads show ID".`);
    const worktrees = new Worktrees(join(cmd.storage, 'worktrees'));
    const actions = new RunChangeActions({
      store,
      snapshots: threadSnapshots({ threadsDir: cmd.storage, store, maxMB: () => DEFAULT_SETTINGS['snapshots.maxMB'], logger }),
      worktrees,
      // This workspace only: a run recorded as working in another one is refused (RunChangeActions),
      // never followed there, since the record beside the threads may have been written by a command.
      workspace: nodeWorkspace({ root: cmd.workspace }),
    });
    try {
      switch (cmd.name) {
        case 'threads revert':
          return await revert(io, cmd, actions, threadId);
        case 'threads apply':
          return await apply(io, cmd, actions);
        case 'threads discard': {
          const gone = await actions.discard(cmd.runId);
          if (cmd.json) io.stdout.write(`${jsonForTerminal({ discarded: cmd.runId, branch: gone.branch })}\n`);
          else io.stdout.write(`Discarded the changes of run ${cmd.runId}: its worktree and branch ${gone.branch} are gone.\n`);
          return EXIT.ok;
        }
      }
    } catch (error) {
      if (error instanceof RunChangeError) throw new UsageError(terminalSafe(commandHint(error.message, cmd.runId)));
      throw error;
    }
  } finally {
    store.dispose();
  }
}

function commandHint(message: string, runId: string): string {
  return message.replace(
    'apply them or discard them instead',
    `use "subagents threads apply ${runId}" or "subagents threads discard ${runId}"`,
  );
}

async function revert(
  io: CliIo,
  cmd: Extract<RunChangesCommand, { name: 'threads revert' }>,
  actions: RunChangeActions,
  threadId: string,
): Promise<number> {
  const terminal = terminalPrompt({ input: io.stdin, output: io.stderr });
  const result = await actions.revert(threadId, cmd.runId, {
    dryRun: cmd.dryRun,
    confirmOverlap: async (paths) => {
      if (cmd.yes) return true;
      const question = `Another command ran at the same time as these changes, so run ${cmd.runId} may not have made them: ${paths.join(', ')}. Revert them too? [y/N] `;
      return /^y(es)?$/i.test((await terminal.ask(question, new AbortController().signal))?.trim() ?? '');
    },
  });
  printRevert(io, cmd, result);
  return result.skipped.length > 0 ? EXIT.runFailed : EXIT.ok;
}

async function apply(io: CliIo, cmd: RunChangesCommand, actions: RunChangeActions): Promise<number> {
  const result = await actions.apply(cmd.runId);
  if (cmd.json) io.stdout.write(`${jsonForTerminal(result)}\n`);
  else {
    for (const path of result.applied) io.stdout.write(terminalSafe(`Applied ${path}\n`));
    for (const { path, reason } of result.conflicts) io.stdout.write(terminalSafe(`Conflict in ${path}: ${reason}\n`));
    if (result.keptBranch) io.stdout.write(`The run's version of every file stays on branch ${result.keptBranch}.\n`);
  }
  return result.conflicts.length > 0 ? EXIT.runFailed : EXIT.ok;
}

function printRevert(io: CliIo, cmd: Extract<RunChangesCommand, { name: 'threads revert' }>, result: RecordedRevert): void {
  if (cmd.json) {
    io.stdout.write(`${jsonForTerminal(result)}\n`);
    return;
  }
  const verb = cmd.dryRun ? 'Would revert' : 'Reverted';
  for (const path of result.reverted) io.stdout.write(terminalSafe(`${verb} ${path}\n`));
  for (const { path, reason } of result.skipped) io.stdout.write(terminalSafe(`Skipped ${path}: ${reason}\n`));
  const already = result.alreadyReverted ?? [];
  if (result.reverted.length === 0 && result.skipped.length === 0)
    io.stdout.write(
      already.length
        ? terminalSafe(`Nothing to undo: run ${cmd.runId}'s changes are already reverted (${already.join(', ')}).\n`)
        : `Run ${cmd.runId} changed no files.\n`,
    );
  if (result.unrecorded)
    io.stderr.write(
      terminalSafe(`The revert could not be written to the conversation (${result.unrecorded}): the run will not read "reverted".\n`),
    );
}
