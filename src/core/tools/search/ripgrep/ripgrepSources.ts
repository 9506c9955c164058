import type { Workspace } from '../../../ports';
import { COMMAND_TOKEN } from '../../../access/sandbox/commandEnv';
import type { CommandLauncher } from '../../../access/sandbox/commandLauncher';
import type { PrefilteredFiles } from '../textSearch/searchFiles';
import { ripgrepPattern } from './ripgrepPattern';
import { ripgrepFiles, ripgrepMatchingFiles, type RipgrepRun } from './runRipgrep';
import { sortInWalkOrder } from './walkOrder';

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
 * Every file the walker would visit, as ripgrep lists them (not yet in walk order: a caller that
 * keeps few of them sorts only those); undefined when the workspace must be walked: no ripgrep,
 * or it failed (the answer is the same, only slower).
 */
export async function ripgrepListing(deps: RipgrepDeps, signal: AbortSignal, timeoutMs: number): Promise<string[] | undefined> {
  const how = run(deps, signal, timeoutMs);
  const listed = how ? await ripgrepFiles(how) : undefined;
  return listed && 'files' in listed ? listed.files : undefined;
}

export interface SearchQuery {
  /** The JavaScript regular expression. */
  pattern: string;
  caseSensitive: boolean;
  maxFileBytes: number;
}

/**
 * For search_text: every file the walker would visit, in its order (so the visit cap, the glob
 * and the secret-file rule see the files the walker would show them), and those ripgrep found a
 * line in that the pattern may match (the only ones the JavaScript matcher then reads); undefined
 * when the workspace must be walked: no ripgrep, a pattern only JavaScript reads right, or
 * ripgrep failed. Two ripgrep runs at once, not one: no single run lists every file the walker
 * visits (`--count --include-zero` leaves out files over the size cap and unreadable ones, which
 * the walker counts), and that one writes a line a file: through the pipe that costs more than a
 * second process (160 ms against 65 on the bench tree), through a temp file it gains nothing
 * (measured alike there and on 21k files of node_modules).
 */
export async function ripgrepPrefilter(
  deps: RipgrepDeps,
  query: SearchQuery,
  signal: AbortSignal,
  timeoutMs: number,
): Promise<PrefilteredFiles | undefined> {
  const how = run(deps, signal, timeoutMs);
  const pattern = how && ripgrepPattern(query.pattern);
  if (!how || pattern === undefined) return undefined;
  // The search first: it takes longer, and each start blocks this thread while the process is forked. The
  // listing only walks folders, on one thread (it is done well before the search), sorted by name: less to sort here.
  const searching = ripgrepMatchingFiles(how, { ...query, pattern });
  // Sorted as soon as it is in, while the search still runs, so the sort is off the path to the answer.
  const listing = ripgrepFiles(how, true).then((listed) => ('files' in listed ? sortInWalkOrder(listed.files) : undefined));
  const [matching, files] = await Promise.all([searching, listing]);
  if (!files || !('files' in matching)) return undefined;
  return { files, mayMatch: new Set(matching.files) };
}
