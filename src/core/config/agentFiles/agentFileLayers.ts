import { readFileSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import type { ProfileLayer } from '../profiles/mergeProfiles';
import type { ProfileProblem } from '../profiles/profileProblem';
import type { AgentFolder } from './agentFolders';
import { validateAgentFile, type AgentFileContext, type AgentFileResult } from './validateAgentFile';

/** Remembers each file's result while its text stays the same (the language server re-reads often). */
export class AgentFileCache {
  private readonly entries = new Map<string, { text: string; result: AgentFileResult }>();

  validate(text: string, folder: AgentFolder, path: string, source: string, context: AgentFileContext): AgentFileResult {
    const hit = this.entries.get(path);
    if (hit && hit.text === text && hit.result.info.dialect === folder.dialect) return hit.result;
    const result = validateAgentFile(text, { path, source, dialect: folder.dialect }, context);
    this.entries.set(path, { text, result });
    return result;
  }

  clear(): void {
    this.entries.clear();
  }
}

export interface AgentFileLayers {
  /** One layer per accepted file, lowest precedence first, for mergeProfiles. */
  layers: ProfileLayer[];
  /** Every file's problems and notes, and duplicates within a folder. */
  problems: ProfileProblem[];
  /** Every file read, accepted or not (the language server's completion and hover use them). */
  files: AgentFileResult[];
}

export interface ReadFolderOptions {
  context?: AgentFileContext;
  cache?: AgentFileCache;
  /** Texts of files open in the editor, by absolute path: used instead of what is on disk. */
  overlay?: ReadonlyMap<string, string>;
  /** Reads a file (the language server's keeps what it read until the file changes); default: from disk. */
  readText?: (path: string) => string;
}

/**
 * Reads agent folders, lowest precedence first. A missing folder is normal; a file that cannot be
 * read is a problem, and the other files still load. Two files of one folder with the same id:
 * the first in sort order wins, and the other gets an error that names both.
 */
export function readAgentFileLayers(folders: readonly AgentFolder[], options: ReadFolderOptions = {}): AgentFileLayers {
  const out: AgentFileLayers = { layers: [], problems: [], files: [] };
  const cache = options.cache ?? new AgentFileCache();
  const context = options.context ?? {};
  for (const folder of folders) {
    const names = listFolder(folder, options.overlay);
    const winners = new Map<string, AgentFileResult>();
    for (const fileName of names) {
      const path = join(folder.dir, fileName);
      const source = `${folder.label}/${fileName}`;
      let text = options.overlay?.get(path);
      if (text === undefined) {
        const refused = refusal(path, folder);
        if (refused) {
          out.problems.push({ source, name: '', field: '', message: refused, severity: 'warning', code: 'field-ignored', path });
          continue;
        }
        try {
          text = (options.readText ?? readUtf8)(path);
        } catch (error) {
          out.problems.push({
            source,
            name: '',
            field: '',
            message: `cannot be read: ${(error as Error).message}`,
            severity: 'error',
            code: 'bad-value',
            path,
          });
          continue;
        }
      }
      const result = cache.validate(text, folder, path, source, context);
      out.files.push(result);
      out.problems.push(...result.problems);
      if (!result.input) continue;
      const first = winners.get(result.id);
      if (first) {
        out.problems.push(duplicate(result, first));
        continue;
      }
      winners.set(result.id, result);
      out.layers.push({ source, profiles: { [result.id]: result.input }, origin: result.origin });
    }
  }
  return out;
}

const readUtf8 = (path: string): string => readFileSync(path, 'utf8');

/** An agent file larger than this is not read (its instructions may have 100,000 characters). */
export const MAX_AGENT_FILE_BYTES = 512 * 1024;

/**
 * Why a file on disk is not read as an agent file, as skills and prompt files are guarded: a
 * repository may hold a link to a file elsewhere (its text would join an agent's prompt), to a
 * pipe or a device (`/dev/zero`: the read would never end), or a huge file.
 */
function refusal(path: string, folder: AgentFolder): string | undefined {
  let size: number;
  try {
    const info = statSync(path);
    if (!info.isFile()) return 'is not a regular file (a pipe, a device or a folder), so it is not read';
    size = info.size;
    if (folder.root) {
      const root = realpathSync(folder.root);
      if (!realpathSync(path).startsWith(root + sep))
        return "is a link to a file outside the workspace, so it is left out of the agents' prompts";
    }
  } catch {
    // A link to nothing, or gone meanwhile: the read below says so.
    return undefined;
  }
  if (size > MAX_AGENT_FILE_BYTES)
    return `is ${Math.round(size / 1024)} KB, more than the ${MAX_AGENT_FILE_BYTES / 1024} KB an agent file may have, so it is left out`;
  return undefined;
}

function listFolder(folder: AgentFolder, overlay: ReadonlyMap<string, string> | undefined): string[] {
  const names = new Set<string>();
  try {
    for (const n of readdirSync(folder.dir)) names.add(n);
  } catch {
    // no such folder: nothing to read
  }
  // A file open in the editor but not saved yet counts too.
  for (const path of overlay?.keys() ?? []) {
    if (path.startsWith(`${folder.dir}/`) && !path.slice(folder.dir.length + 1).includes('/')) names.add(path.slice(folder.dir.length + 1));
  }
  const suffix = (n: string) => folder.suffixes.some((s) => n.endsWith(s));
  return [...names].filter(suffix).sort();
}

function duplicate(loser: AgentFileResult, winner: AgentFileResult): ProfileProblem {
  const nameRange = loser.origin.ranges['name'];
  const free = `${loser.id}-2`;
  const renamable = nameRange && loser.info.dialect !== 'copilot';
  return {
    source: loser.info.source,
    name: loser.id,
    field: 'name',
    message: `defines "${loser.id}", as ${winner.info.source} does; that file comes first in sort order and wins, so this one is not used. Rename one of them${loser.info.dialect === 'copilot' ? ' (in Copilot the file name is the id)' : ''}`,
    severity: 'error',
    code: 'duplicate',
    path: loser.info.path,
    ...(nameRange ? { range: nameRange } : loser.frontMatter ? { range: loser.frontMatter.positions.lineRange(0) } : {}),
    ...(renamable ? { fixes: [{ title: `Rename to "${free}"`, newText: free }] } : {}),
  };
}
