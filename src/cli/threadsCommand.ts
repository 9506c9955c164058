import { readFile, stat } from 'node:fs/promises';
import { threadSnapshots } from '../core/changes/attribution/threadSnapshots';
import { DEFAULT_SETTINGS } from '../core/config/settings/engineSettings';
import { readThreadArchive, ThreadArchiveError } from '../core/storage/threads/threadArchive';
import { ThreadExistsError } from '../core/storage/threads/threadStore';
import { JsonlThreadStore } from '../core/storage/threads/jsonlThreadStore';
import { ThreadBusyError } from '../core/storage/threads/threadLeases';
import { isThreadId } from '../core/storage/threads/threadId';
import type { LoadedFamily } from '../core/storage/threads/threadStore';
import { EMPTY_TREE, foldRunEvents } from '../shared/runTree';
import { walkRuns } from '../shared/runTotals';
import type { Command } from './cliArgs';
import { EXIT, UsageError } from './cliError';
import { stderrLogger } from './cliIo';
import type { CliIo } from './cliIo';
import { oneLine } from '../shared/oneLine';
import { exportThread } from '../core/storage/threads/exportThread';
import { renderRunTree } from '../core/storage/threads/runTreeText';
import { effectiveRuns, renderEffective } from './renderEffective';
import { jsonForTerminal, terminalSafe, terminalSafeJson } from './terminalText';
import { prepareStorage } from './defaultStorage';
import { closeInterruptedRuns, withEnds } from '../core/storage/threads/interruptedRuns';

/** The thread commands; those about one run's changes are runChangesCommand's. */
type ThreadsCommand = Exclude<
  Extract<Command, { name: `threads ${string}` }>,
  { name: 'threads revert' | 'threads apply' | 'threads discard' }
>;

async function exists(dir: string): Promise<boolean> {
  return (await stat(dir).catch(() => undefined))?.isDirectory() === true;
}

async function loadFamily(store: JsonlThreadStore, cmd: ThreadsCommand & { id: string }, io: CliIo): Promise<LoadedFamily> {
  if (!isThreadId(cmd.id)) throw new UsageError(`"${cmd.id}" is not a thread id. See "subagents threads list".`);
  const family = (await exists(cmd.storage)) ? await store.getFamily(cmd.id) : undefined;
  if (!family) throw new UsageError(`There is no thread "${cmd.id}" in ${cmd.storage}. See "subagents threads list".`);
  for (const w of family.warnings) io.stderr.write(terminalSafe(`subagents: warning: ${w}\n`));
  return family;
}

/**
 * `subagents threads list|show|export|import|delete`. Read-only commands never close open runs as
 * interrupted: another `subagents run` may be working on them right now.
 */
export async function threadsCommand(cmd: ThreadsCommand, io: CliIo): Promise<number> {
  const store = new JsonlThreadStore({ dir: cmd.storage, logger: stderrLogger(io) });
  const write = (text: string) => io.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  // Text output shows what models and tools wrote: without terminal control sequences (terminalText.ts).
  const writeText = (text: string) => write(terminalSafe(text));
  switch (cmd.name) {
    case 'threads list': {
      const all = (await exists(cmd.storage)) ? await store.list() : [];
      const threads = cmd.all ? all : all.filter((t) => t.parentThreadId === null);
      if (cmd.json) write(jsonForTerminal(threads));
      else if (threads.length === 0) io.stderr.write(`No threads in ${cmd.storage}.\n`);
      else {
        for (const t of threads) {
          const parent = t.parentThreadId ? `  (child of ${t.parentThreadId})` : '';
          writeText(`${t.id}  ${new Date(t.updatedAt).toISOString()}  ${t.agent}  ${oneLine(t.title, 80)}${parent}`);
        }
      }
      return EXIT.ok;
    }
    case 'threads show': {
      const family = await loadFamily(store, cmd, io);
      // Runs a killed process left open show as interrupted, as `threads list` says; the file is not changed.
      const working = await store.isWorking(family.meta.id);
      const tree = foldRunEvents(EMPTY_TREE, working ? family.events : withEnds(family.events, closeInterruptedRuns(family.events)));
      if (cmd.effective) {
        if (cmd.json) write(jsonForTerminal({ thread: family.meta, runs: effectiveRuns(tree) }));
        else writeText(`${family.meta.id}  ${oneLine(family.meta.title, 80)}\n${renderEffective(tree)}`);
        return EXIT.ok;
      }
      const pruned = await threadSnapshots({
        threadsDir: cmd.storage,
        store,
        maxMB: () => DEFAULT_SETTINGS['snapshots.maxMB'],
        logger: stderrLogger(io),
      }).prunedNote(family.meta.id);
      if (cmd.json)
        write(
          jsonForTerminal({
            thread: family.meta,
            warnings: family.warnings,
            runs: walkRuns(tree),
            ...(pruned ? { revertUnavailable: pruned } : {}),
          }),
        );
      else writeText(`${family.meta.id}  ${oneLine(family.meta.title, 80)}\n${renderRunTree(tree, Date.now(), pruned)}`);
      return EXIT.ok;
    }
    case 'threads export': {
      const family = await loadFamily(store, cmd, io);
      const exported = exportThread(family, cmd.format, Date.now());
      // JSON escapes control characters itself; Markdown is model text a terminal would obey.
      if (cmd.format === 'json') write(terminalSafeJson(exported.text));
      else writeText(exported.text);
      return EXIT.ok;
    }
    case 'threads import': {
      const text = await readFile(cmd.file, 'utf8').catch((error: NodeJS.ErrnoException) => {
        throw new UsageError(`Cannot read ${cmd.file}: ${error.code === 'ENOENT' ? 'there is no such file' : error.message}.`);
      });
      let threads;
      try {
        threads = readThreadArchive(text, Date.now());
        await prepareStorage(cmd.workspace, cmd.storage, stderrLogger(io));
        await store.importThreads(threads);
      } catch (error) {
        if (error instanceof ThreadArchiveError) throw new UsageError(`Cannot import ${cmd.file}: ${error.message}`);
        if (error instanceof ThreadExistsError) throw new UsageError(`Cannot import ${cmd.file}: ${error.message}`);
        throw error;
      } finally {
        await store.flush();
        store.dispose();
      }
      const root = threads[0]!.meta;
      if (cmd.json) write(jsonForTerminal({ imported: root.id, threads: threads.map((t) => t.meta.id) }));
      else
        writeText(
          `Imported thread ${root.id} ("${oneLine(root.title, 60)}") with ${threads.length - 1} child thread${threads.length === 2 ? '' : 's'} into ${cmd.storage}.`,
        );
      return EXIT.ok;
    }
    case 'threads delete': {
      if (!isThreadId(cmd.id)) throw new UsageError(`"${cmd.id}" is not a thread id. See "subagents threads list".`);
      let deleted;
      try {
        deleted = (await exists(cmd.storage)) && (await store.delete(cmd.id));
      } catch (error) {
        // Working in a window or another `subagents run`: deleting it under them would lose their run.
        if (error instanceof ThreadBusyError)
          throw new UsageError(
            `Thread "${cmd.id}" is working in another window or \`subagents run\`; wait for it to finish, then delete it.`,
          );
        throw error;
      }
      if (!deleted) throw new UsageError(`There is no thread "${cmd.id}" in ${cmd.storage}. See "subagents threads list".`);
      if (cmd.json) write(JSON.stringify({ deleted: cmd.id }));
      else write(`Deleted thread ${cmd.id} and its child threads.`);
      return EXIT.ok;
    }
  }
}
