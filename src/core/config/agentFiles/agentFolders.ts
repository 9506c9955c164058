import { join } from 'node:path';
import type { AgentFileDialect } from './agentFields';

/** A folder of agent files: one layer of profiles. */
export interface AgentFolder {
  /** Absolute path. */
  dir: string;
  /** For people and for Profile.source: ".claude/agents", "~/.claude/agents". */
  label: string;
  /** The file names it holds end so. */
  suffixes: readonly string[];
  dialect: AgentFileDialect;
  scope: 'user' | 'workspace';
  /** A workspace folder's workspace: its files must lead nowhere outside it. */
  root?: string;
}

/** The workspace's agent folders, lowest precedence first: imports, then our own folder. */
export const WORKSPACE_AGENT_FOLDERS = [
  { dir: '.claude/agents', suffixes: ['.md'], dialect: 'claude' },
  { dir: '.github/agents', suffixes: ['.agent.md'], dialect: 'copilot' },
  { dir: '.vscode/agents', suffixes: ['.md'], dialect: 'native' },
] as const;

/** The user's agent folders of Claude Code and the Copilot CLI, lowest first. */
export const USER_AGENT_FOLDERS = [
  { dir: '.claude/agents', suffixes: ['.md'], dialect: 'claude', setting: 'claude' },
  { dir: '.copilot/agents', suffixes: ['.agent.md', '.md'], dialect: 'copilot', setting: 'copilot' },
] as const;

/** Which user folders are read (`subagents.userAgentFolders`). */
export interface UserAgentFolderSwitches {
  claude: boolean;
  copilot: boolean;
}

/** The glob a host watches to reload profiles when an agent file changes (workspace and user folders alike). */
export const AGENT_FILES_GLOB =
  '{.claude/agents/*.md,.github/agents/*.agent.md,.vscode/agents/*.md,.copilot/agents/*.md,.claude/skills/*/SKILL.md,.github/skills/*/SKILL.md,.agents/skills/*/SKILL.md}';

/** Every glob the editor's language client selects agent files by. */
export const AGENT_FILE_PATTERNS = [
  '**/.vscode/agents/*.md',
  '**/.claude/agents/*.md',
  '**/.github/agents/*.agent.md',
  '**/.copilot/agents/*.md',
  // SKILL.md files (src/core/config/skills/skillFolders.ts): checked by the same server.
  '**/.claude/skills/*/SKILL.md',
  '**/.github/skills/*/SKILL.md',
  '**/.agents/skills/*/SKILL.md',
] as const;

/** The user's folders (when `home` is given and switched on), then the workspace's (when trusted). */
export function agentFolders(options: { root?: string; home?: string; user: UserAgentFolderSwitches; trusted: boolean }): {
  user: AgentFolder[];
  workspace: AgentFolder[];
} {
  const user: AgentFolder[] = [];
  if (options.home) {
    for (const f of USER_AGENT_FOLDERS) {
      if (options.user[f.setting])
        user.push({ dir: join(options.home, f.dir), label: `~/${f.dir}`, suffixes: f.suffixes, dialect: f.dialect, scope: 'user' });
    }
  }
  const workspace: AgentFolder[] = [];
  if (options.root && options.trusted) {
    for (const f of WORKSPACE_AGENT_FOLDERS)
      workspace.push({
        dir: join(options.root, f.dir),
        label: f.dir,
        suffixes: f.suffixes,
        dialect: f.dialect,
        scope: 'workspace',
        root: options.root,
      });
  }
  return { user, workspace };
}

/** The dialect of a file by where it lives, for a file opened in the editor; undefined when it is no agent file. */
export function dialectOfPath(path: string): AgentFileDialect | undefined {
  const p = path.replace(/\\/g, '/');
  if (/\/\.vscode\/agents\/[^/]+\.md$/.test(p)) return 'native';
  if (/\/\.claude\/agents\/[^/]+\.md$/.test(p)) return 'claude';
  if (/\/\.github\/agents\/[^/]+\.agent\.md$/.test(p)) return 'copilot';
  if (/\/\.copilot\/agents\/[^/]+\.md$/.test(p)) return 'copilot';
  return undefined;
}
