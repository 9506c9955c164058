import type { Workspace } from '../ports';
import { COMMAND_TOKEN } from '../sandbox/commandEnv';
import type { CommandLauncher } from '../sandbox/commandLauncher';
import { listedFiles } from '../textSearch/searchFiles';
import { walkWorkspace } from '../tools/workspaceFiles';
import { ripgrepCanPrefilter } from './jsOnlyPattern';
import { ripgrepFiles, ripgrepMatchingFiles, type RipgrepMatchQuery, type RipgrepRun } from './runRipgrep';

/** What the search tools have that ripgrep needs: where it is, and the commands' environment. */
export interface RipgrepDeps {
  workspace: Pick<Workspace, 'root' | 'ripgrep'>;
  commands: Pick<CommandLauncher, 'environment'>;
}

function run(deps: RipgrepDeps, signal: AbortSignal, timeoutMs: number): RipgrepRun | undefined {
  const rg = deps.workspace.ripgrep;
  if (!rg) return undefined;
  // Without the command token: ripgrep starts nothing, so no sweep of every process for it is needed when it ends.
  const { [COMMAND_TOKEN]: _token, ...env } = deps.commands.environment();
  return { rg, root: deps.workspace.root, env, signal, timeoutMs };
}

/**
 * The workspace's files in walk order, for find_files: ripgrep's list where it runs, else the
 * walker (when there is no ripgrep, or it failed: the answer is the same, only slower).
 */
export async function workspaceFiles(deps: RipgrepDeps, signal: AbortSignal, maxFiles: number, timeoutMs: number): Promise<AsyncGenerator<string, { complete: boolean }>> {
  const how = run(deps, signal, timeoutMs);
  const listed = how ? await ripgrepFiles(how) : undefined;
  if (listed && 'files' in listed) return listedFiles(listed.files, signal, maxFiles);
  return walkWorkspace(deps.workspace.root, { signal, maxFiles });
}

/**
 * The files search_text's JavaScript matcher should read, picked by ripgrep (every file with a
 * line the pattern may match, in walk order); undefined when the workspace must be walked: no
 * ripgrep, a pattern only JavaScript reads right, or ripgrep failed.
 */
export async function ripgrepCandidates(deps: RipgrepDeps, query: RipgrepMatchQuery, signal: AbortSignal, timeoutMs: number): Promise<string[] | undefined> {
  const how = run(deps, signal, timeoutMs);
  if (!how || !ripgrepCanPrefilter(query.pattern)) return undefined;
  const listed = await ripgrepMatchingFiles(how, query);
  return 'files' in listed ? listed.files : undefined;
}
