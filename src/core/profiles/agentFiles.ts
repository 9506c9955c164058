import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { AGENT_FILE_SOURCES, parseAgentFile } from './agentFile';
import type { ProfileLayer } from './mergeProfiles';
import type { ProfileProblem } from './profile';

export interface AgentFileLayers {
  /** One layer per file, lowest precedence first, for mergeProfiles. */
  layers: ProfileLayer[];
  /** Files that could not be read at all. */
  problems: ProfileProblem[];
  /** What an import left out, each a sentence naming the file. */
  notes: string[];
}

/** The glob a host watches to reload profiles when an agent file changes. */
export const AGENT_FILES_GLOB = '{.claude/agents/*.md,.github/agents/*.agent.md,.vscode/agents/*.md}';

/**
 * Reads the workspace's agent files (DESIGN section 4). Synchronous and small: a few files, read
 * when profiles change, not per event. A missing folder is normal; a broken file is a problem
 * named by its path, and the other files still load.
 */
export function readAgentFiles(root: string): AgentFileLayers {
  const out: AgentFileLayers = { layers: [], problems: [], notes: [] };
  for (const { dir, suffix, dialect } of AGENT_FILE_SOURCES) {
    let names: string[];
    try {
      names = readdirSync(join(root, dir)).filter((n) => n.endsWith(suffix)).sort();
    } catch {
      continue;
    }
    for (const fileName of names) {
      const source = `${dir}/${fileName}`;
      try {
        const parsed = parseAgentFile(readFileSync(join(root, dir, fileName), 'utf8'), fileName, dialect);
        out.layers.push({ source, profiles: { [parsed.name]: parsed.profile } });
        for (const note of parsed.notes) out.notes.push(`${source}: ${note}.`);
      } catch (error) {
        out.problems.push({ source, name: fileName, field: '', message: (error as Error).message });
      }
    }
  }
  return out;
}
