import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { EngineSettings } from '../core/engineSettings';
import { parseJsonc } from '../core/jsonc/parseJsonc';
import { describeSettingProblem, readEngineSettings, settingsLayerFromJson } from '../core/settings/readEngineSettings';
import { UsageError } from './cliError';

/** What the CLI takes from `<workspace>/.vscode/settings.json`. */
export interface WorkspaceSettings {
  /** Where they came from, for messages. */
  path: string;
  settings: EngineSettings;
  /** `subagents.agents` as written: mergeProfiles validates it. */
  agents: unknown;
}

/**
 * Reads the `subagents.*` settings of a workspace through the core's one settings reader.
 * settings.json is JSONC (comments and trailing commas allowed, as in VS Code). A missing file
 * means defaults; a broken file or a bad value is a UsageError naming the file and the setting,
 * since a CLI run should not guess.
 */
export async function readWorkspaceSettings(workspace: string): Promise<WorkspaceSettings> {
  const path = join(workspace, '.vscode', 'settings.json');
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw new UsageError(`Cannot read ${path}: ${(error as Error).message}.`);
    return { path, settings: readEngineSettings([], { trusted: true }).settings, agents: undefined };
  }
  const parsed = parseJsonc(text, { jsonc: true });
  if (!parsed.ok) {
    const { message, line, column } = parsed.error;
    throw new UsageError(`${path} is not valid JSON at line ${line}, column ${column}: ${message}. Fix the file and try again.`);
  }
  const value = parsed.value;
  const all = (typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {}) as Record<string, unknown>;
  // The user named this folder on the command line: its settings count as trusted.
  const read = readEngineSettings([settingsLayerFromJson(all, 'workspace', path)], { trusted: true });
  const first = read.problems[0];
  if (first) throw new UsageError(describeSettingProblem(first));
  return { path, settings: read.settings, agents: all['subagents.agents'] };
}
