import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { EngineSettings } from '../core/config/settings/engineSettings';
import { parseJsonc } from '../core/platform/jsonc/parseJsonc';
import {
  describeSettingProblem,
  readEngineSettings,
  settingsLayerFromJson,
  type ReadSettings,
  type SettingsLayer,
} from '../core/config/settings/readEngineSettings';
import type { TrustFlags } from './cliArgs';
import { UsageError } from './cliError';
import { trustFlagsLayer } from './trustFlags';

/** What the CLI takes from `<workspace>/.vscode/settings.json` and its own trust flags. */
export interface WorkspaceSettings {
  /** Where they came from, for messages. */
  path: string;
  settings: EngineSettings;
  /** Which scope each value came from: `user` is the command line. */
  scopes: ReadSettings['scopes'];
  /** `subagents.agents` as written: mergeProfiles validates it. */
  agents: unknown;
  /** Values that were ignored, each a sentence for stderr (a workspace setting that would raise trust). */
  notices: string[];
  /** `subagents.mcpServers` as written: declareMcpServers checks it. */
  mcpServers?: unknown;
  /** `subagents.hooks` as written: readHooks checks it (the workspace's, so it runs only with --allow-hooks). */
  hooks?: unknown;
}

/** A settings.json larger than this is refused, not read whole. */
const MAX_SETTINGS_BYTES = 4 * 1024 * 1024;

/**
 * Reads the `subagents.*` settings of a workspace through the core's one settings reader, with
 * the trust flags as the user's layer. settings.json is JSONC (comments and trailing commas
 * allowed, as in VS Code). A missing file means defaults; a broken file or a bad value is a
 * UsageError naming the file and the setting, since a CLI run should not guess; a setting the
 * workspace may not set is ignored with a notice.
 */
export async function readWorkspaceSettings(workspace: string, trust?: TrustFlags): Promise<WorkspaceSettings> {
  const path = join(workspace, '.vscode', 'settings.json');
  const layers: SettingsLayer[] = [trustFlagsLayer(trust)];
  let all: Record<string, unknown> = {};
  // A repository's settings.json may be a link to a pipe or /dev/zero: a read that never ends.
  const info = await stat(path).catch(() => undefined);
  if (info && !info.isFile())
    throw new UsageError(`${path} is not a regular file (a pipe, a device or a folder): make it a settings file.`);
  if (info && info.size > MAX_SETTINGS_BYTES)
    throw new UsageError(
      `${path} is ${Math.round(info.size / 1024)} KB, more than the ${MAX_SETTINGS_BYTES / 1024} KB a settings file may have.`,
    );
  const text = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw new UsageError(`Cannot read ${path}: ${error.message}.`);
  });
  if (text !== undefined) {
    const parsed = parseJsonc(text, { jsonc: true });
    if (!parsed.ok) {
      const { message, line, column } = parsed.error;
      throw new UsageError(`${path} is not valid JSON at line ${line}, column ${column}: ${message}. Fix the file and try again.`);
    }
    const value = parsed.value;
    all = (typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {}) as Record<string, unknown>;
    // The user named this folder on the command line: its settings count as trusted (but cannot raise trust).
    layers.push(settingsLayerFromJson(all, 'workspace', path));
  }
  const read = readEngineSettings(layers, { trusted: true });
  const invalid = read.problems.find((p) => p.kind === 'invalid');
  if (invalid) throw new UsageError(describeSettingProblem(invalid));
  const notices = read.problems.filter((p) => p.kind === 'userOnly').map(describeSettingProblem);
  return {
    path,
    settings: read.settings,
    scopes: read.scopes,
    agents: all['subagents.agents'],
    mcpServers: all['subagents.mcpServers'],
    hooks: all['subagents.hooks'],
    notices,
  };
}
