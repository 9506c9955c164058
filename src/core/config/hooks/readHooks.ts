import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { scriptsDigest, workspaceScripts } from '../scripts/workspaceScripts';
import { hooksOf, parseHooksFile, type HookDeclaration, type HookScope, type ParsedHooks } from './hookDeclarations';

/** A `subagents.hooks` value, with the settings scope it came from (a workspace's needs consent). */
export interface SettingsHooks {
  value: unknown;
  scope: HookScope;
  source: string;
}

/** Every hook declared for a workspace, with the problems found, and a fingerprint of the repository's. */
export interface DeclaredHooks {
  hooks: HookDeclaration[];
  problems: string[];
  /**
   * sha-256 over the repository hooks as declared and the bytes of the workspace scripts their
   * commands name: consent given for one fingerprint does not cover another (a changed command, or a
   * changed script). Empty when the repository declares none.
   */
  repositoryFingerprint: string;
}

/** Files larger than this are not hook files (and are not read whole). */
const MAX_FILE_BYTES = 1024 * 1024;

/**
 * Reads the hooks as Claude Code, VS Code and the Copilot CLI do: `~/.claude/settings.json` (the
 * user's), `.claude/settings.json`, `.claude/settings.local.json` and `.github/hooks/*.json` (the
 * repository's), and the `subagents.hooks` settings given.
 */
export function readHooks(root: string, settings: readonly SettingsHooks[] = [], home: string = homedir()): DeclaredHooks {
  const parts: ParsedHooks[] = [];
  const file = (path: string, shown: string, scope: HookScope) => {
    const text = readSmall(path);
    if (text !== undefined) parts.push(parseHooksFile(text, shown, scope));
  };
  file(join(home, '.claude', 'settings.json'), '~/.claude/settings.json', 'user');
  file(join(root, '.claude', 'settings.json'), '.claude/settings.json', 'repository');
  file(join(root, '.claude', 'settings.local.json'), '.claude/settings.local.json', 'repository');
  for (const name of listJson(join(root, '.github', 'hooks')))
    file(join(root, '.github', 'hooks', name), `.github/hooks/${name}`, 'repository');
  for (const s of settings) if (s.value !== undefined) parts.push(hooksOf(s.value, s.source, s.scope));
  const hooks = parts.flatMap((p) => p.hooks);
  return { hooks, problems: parts.flatMap((p) => p.problems), repositoryFingerprint: fingerprint(root, hooks) };
}

function readSmall(path: string): string | undefined {
  try {
    const info = statSync(path);
    if (!info.isFile() || info.size > MAX_FILE_BYTES) return undefined;
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

function listJson(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((name) => name.endsWith('.json'))
      .sort();
  } catch {
    return [];
  }
}

function fingerprint(root: string, hooks: readonly HookDeclaration[]): string {
  const repository = hooks.filter((h) => h.scope === 'repository');
  if (repository.length === 0) return '';
  const hash = createHash('sha256');
  for (const h of repository) {
    hash.update(JSON.stringify([h.source, h.event, h.matcher ?? '', h.command, h.timeoutSec]));
    hash.update(scriptsDigest(root, hookScripts(root, h.command)));
  }
  return hash.digest('hex');
}

/** The workspace files a hook's command names (`./x.sh`, `$CLAUDE_PROJECT_DIR/.claude/hooks/x.py`, `bash -c "… ./x.sh"`), relative to the root. */
export function hookScripts(root: string, command: string): string[] {
  return workspaceScripts(root, command.replace(/\$\{?CLAUDE_PROJECT_DIR\}?/g, root).match(/"[^"]*"|'[^']*'|[^\s;&|<>()]+/g) ?? []);
}
