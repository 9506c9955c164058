import { readFileSync } from 'node:fs';
import { listedProblems } from '../../core/config/profiles/listedProblems';
import type { Profile } from '../../core/config/profiles/profile';
import type { ProfileProblem } from '../../core/config/profiles/profileProblem';
import { describeSettingProblem, settingProblemSeverity, type SettingProblem } from '../../core/config/settings/readEngineSettings';
import { settingsKeyLine } from '../../core/config/settings/settingsKeyLine';
import type { ConfigProblem } from '../../shared/protocol';

/** A settings layer as the user knows it: its name in sentences, and its file when it has one here. */
export interface SettingsPlace {
  label: string;
  /** Absolute; absent for the user settings, which VS Code opens itself (profiles move the file). */
  path?: string;
}

export interface ConfigProblemSources {
  settingProblems: readonly SettingProblem[];
  profileProblems: readonly ProfileProblem[];
  /** The merged, enabled profiles: what still works meanwhile. */
  profiles: ReadonlyMap<string, Pick<Profile, 'source'>>;
  places: readonly SettingsPlace[];
  /** Reads a file for the line of a problem; undefined when it cannot be read. */
  read?: (path: string) => string | undefined;
}

/**
 * Every settings and profile problem as a ConfigProblem: the core's sentence, and where to fix it
 * (the settings file at the key; an agent file's problems carry their own line), so the panel can
 * link there. The notes of one agent file come as one line (listedProblems).
 */
export function configProblems(sources: ConfigProblemSources): ConfigProblem[] {
  const read = sources.read ?? readText;
  const place = (label: string) => sources.places.find((p) => p.label === label);
  const inSettings = (label: string, key: readonly string[]): ConfigProblem['location'] => {
    const at = place(label);
    if (!at?.path) return { setting: key[0]! };
    const text = read(at.path);
    const line = text === undefined ? undefined : settingsKeyLine(text, key);
    return { path: at.path, ...(line === undefined ? {} : { line }), setting: key[0]! };
  };
  const problems: ConfigProblem[] = sources.settingProblems.map((p) => ({
    message: describeSettingProblem(p),
    // An ignored user-only setting is a notice (it works, not as the workspace wrote it); an invalid value is an error.
    severity: settingProblemSeverity(p),
    location: inSettings(p.source, [p.setting]),
  }));
  // A profile defined in a settings file is fixed at its key there.
  const locate = (p: ProfileProblem) => {
    const key = ['subagents.agents', ...(p.name ? [p.name] : []), ...(p.field ? [p.field.split('.')[0]!] : [])];
    return inSettings(p.source, key);
  };
  problems.push(...listedProblems(sources.profileProblems, sources.profiles, locate));
  return problems;
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}
