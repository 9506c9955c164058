import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeProfileProblemAndEffect, isAgentFileSource } from '../core/profiles/describeProfileProblem';
import { frontMatterLine } from '../core/profiles/frontMatterLine';
import type { Profile, ProfileProblem } from '../core/profiles/profile';
import { describeSettingProblem, type SettingProblem } from '../core/settings/readEngineSettings';
import { settingsKeyLine } from '../core/settings/settingsKeyLine';
import type { ConfigProblem } from '../shared/protocol';

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
  /** The workspace folder, for agent files (their sources are relative to it). */
  root: string | undefined;
  places: readonly SettingsPlace[];
  /** Reads a file for the line of a problem; undefined when it cannot be read. */
  read?: (path: string) => string | undefined;
}

/**
 * Every settings and profile problem as a ConfigProblem: the core's sentence, and where to fix it
 * (the settings file at the key, or the agent file at the field), so the panel can link there.
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
    severity: 'error',
    location: inSettings(p.source, [p.setting]),
  }));
  for (const p of sources.profileProblems) {
    let location: ConfigProblem['location'];
    if (isAgentFileSource(p.source) && sources.root) {
      const path = join(sources.root, p.source);
      const text = read(path);
      location = { path, line: text === undefined ? 1 : frontMatterLine(text, p.field) };
    } else {
      const key = ['subagents.agents', ...(p.name ? [p.name] : []), ...(p.field ? [p.field.split('.')[0]!] : [])];
      location = inSettings(p.source, key);
    }
    problems.push({ message: describeProfileProblemAndEffect(p, sources.profiles), severity: 'error', ...(location ? { location } : {}) });
  }
  return problems;
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}
