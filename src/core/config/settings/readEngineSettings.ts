import { z } from 'zod';
import { engineSettingsSchema, type EngineSettings } from './engineSettings';
import { isUserOnlySetting, USER_ONLY_HINT, userOnlyReason } from './userOnlySettings';

/**
 * The one reader of `subagents.*` settings, for the extension and the CLI alike: each host only
 * says where the values come from (VS Code's inspect() layers, or a settings.json file), so both
 * read the same fields with the same checks and the same precedence.
 */

/** Where a layer of settings comes from; later scopes win, as in VS Code. */
export type SettingsScope = 'user' | 'workspace' | 'folder';

export interface SettingsLayer {
  scope: SettingsScope;
  /** For messages: "user settings", "/path/.vscode/settings.json". */
  source: string;
  /** Values by field name without the `subagents.` prefix, as written. */
  values: Readonly<Record<string, unknown>>;
}

/** A value that was not used, and why, in words for the user. */
export interface SettingProblem {
  /** The full setting name, `subagents.maxDepth`. */
  setting: string;
  source: string;
  /** `invalid`: the value fails its check; `userOnly`: a workspace may not set this (userOnlySettings.ts). */
  kind: 'invalid' | 'userOnly';
  /** For `invalid`: what is wrong with the value. */
  message: string;
}

export interface ReadSettings {
  settings: EngineSettings;
  problems: SettingProblem[];
  /** Which scope each field's value came from; absent: the default. */
  scopes: Partial<Record<keyof EngineSettings, SettingsScope>>;
}

/** Every field the engine reads: the keys of its schema, so a new setting cannot be forgotten by one host. */
export const ENGINE_SETTING_FIELDS = Object.keys(engineSettingsSchema.shape) as (keyof EngineSettings)[];

const SCOPE_ORDER: Record<SettingsScope, number> = { user: 0, workspace: 1, folder: 2 };

/**
 * Merges the layers field by field, lowest scope first; an invalid value is a problem and leaves
 * the lower value (or the default) in place. Settings that raise trust are taken from user
 * settings only (a value elsewhere is a `userOnly` problem). In an untrusted workspace only user
 * settings count at all.
 */
export function readEngineSettings(layers: readonly SettingsLayer[], options: { trusted: boolean }): ReadSettings {
  const ordered = [...layers].sort((a, b) => SCOPE_ORDER[a.scope] - SCOPE_ORDER[b.scope]);
  const raw: Record<string, unknown> = {};
  const problems: SettingProblem[] = [];
  const scopes: ReadSettings['scopes'] = {};
  for (const field of ENGINE_SETTING_FIELDS) {
    for (const layer of ordered) {
      if (!options.trusted && layer.scope !== 'user') continue;
      const value = layer.values[field];
      if (value === undefined) continue;
      const setting = `subagents.${field}`;
      if (layer.scope !== 'user' && isUserOnlySetting(field)) {
        problems.push({ setting, source: layer.source, kind: 'userOnly', message: '' });
        continue;
      }
      const checked = engineSettingsSchema.shape[field].safeParse(value);
      if (!checked.success) {
        problems.push({ setting, source: layer.source, kind: 'invalid', message: z.prettifyError(checked.error).replace(/\n/g, ' ') });
        continue;
      }
      raw[field] = checked.data;
      scopes[field] = layer.scope;
    }
  }
  return { settings: engineSettingsSchema.parse(raw), problems, scopes };
}

/** An invalid value does not work as written (an error); an ignored user-only one is a notice (a warning). */
export function settingProblemSeverity(p: SettingProblem): 'error' | 'warning' {
  return p.kind === 'invalid' ? 'error' : 'warning';
}

/** A settings problem as one sentence, the same in the panel, the log and the CLI. */
export function describeSettingProblem(p: SettingProblem): string {
  if (p.kind === 'userOnly') {
    return `The setting "${p.setting}" in ${p.source} is ignored: ${userOnlyReason(p.setting.replace(/^subagents\./, ''))}; ${USER_ONLY_HINT}.`;
  }
  return `The setting "${p.setting}" in ${p.source} is invalid (${p.message}); it is ignored. Fix it or remove it to use the default.`;
}

/** The `subagents.*` entries of a settings.json object as a layer. */
export function settingsLayerFromJson(json: Readonly<Record<string, unknown>>, scope: SettingsScope, source: string): SettingsLayer {
  const values: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(json)) if (key.startsWith('subagents.')) values[key.slice('subagents.'.length)] = value;
  return { scope, source, values };
}
