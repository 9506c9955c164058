import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { engineSettingsSchema } from '../core/engineSettings';
import { parseJsonc } from '../core/jsonc/parseJsonc';
import type { EngineSettings } from '../core/engineSettings';
import { UsageError } from './cliError';

export const approvalModeSchema = z.enum(['ask', 'autoEdit', 'trust']);
export type ApprovalMode = z.infer<typeof approvalModeSchema>;

/** What the CLI takes from `<workspace>/.vscode/settings.json`. */
export interface WorkspaceSettings {
  /** Where they came from, for messages. */
  path: string;
  settings: EngineSettings;
  approval: ApprovalMode;
  /** `subagents.agents` as written: mergeProfiles validates it. */
  agents: unknown;
}

const FIELDS = ['model', 'maxDepth', 'maxConcurrency', 'supervisor', 'autoApproveCommands'] as const;

/**
 * Reads the `subagents.*` settings of a workspace. settings.json is JSONC (comments and trailing
 * commas allowed, as in VS Code). A missing file means defaults; a broken file or a bad value is a
 * UsageError naming the file and the setting, since a CLI run should not guess.
 */
export async function readWorkspaceSettings(workspace: string): Promise<WorkspaceSettings> {
  const path = join(workspace, '.vscode', 'settings.json');
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw new UsageError(`Cannot read ${path}: ${(error as Error).message}.`);
    return { path, settings: engineSettingsSchema.parse({}), approval: 'ask', agents: undefined };
  }
  const parsed = parseJsonc(text, { jsonc: true });
  if (!parsed.ok) {
    const { message, line, column } = parsed.error;
    throw new UsageError(`${path} is not valid JSON at line ${line}, column ${column}: ${message}. Fix the file and try again.`);
  }
  const value = parsed.value;
  const all = (typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {}) as Record<string, unknown>;
  const raw: Record<string, unknown> = {};
  for (const field of FIELDS) {
    const v = all[`subagents.${field}`];
    if (v === undefined) continue;
    const checked = engineSettingsSchema.shape[field].safeParse(v);
    if (!checked.success) {
      throw new UsageError(`The setting "subagents.${field}" in ${path} is invalid: ${z.prettifyError(checked.error).replace(/\n/g, ' ')}. Fix it or remove it to use the default.`);
    }
    raw[field] = checked.data;
  }
  let approval: ApprovalMode = 'ask';
  if (all['subagents.approval'] !== undefined) {
    const checked = approvalModeSchema.safeParse(all['subagents.approval']);
    if (!checked.success) throw new UsageError(`The setting "subagents.approval" in ${path} must be "ask", "autoEdit" or "trust".`);
    approval = checked.data;
  }
  return { path, settings: engineSettingsSchema.parse(raw), approval, agents: all['subagents.agents'] };
}
