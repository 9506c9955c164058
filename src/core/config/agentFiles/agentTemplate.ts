import { basename, join } from 'node:path';
import { USER_AGENT_FOLDERS, WORKSPACE_AGENT_FOLDERS } from './agentFolders';

/** A new agent file of ours: every field it needs, a safe tool list, and instructions to fill in. */
export function agentTemplate(id: string): string {
  return [
    '---',
    `description: Say what ${id} is good at and when to use it; the supervisor reads this to choose it`,
    'tools: [read_file, list_dir, find_files, search_text]',
    'model: inherit',
    '---',
    `You are ${id}, a subagent working on a task your supervisor gave you.`,
    '',
    'How to work:',
    '- Read what the task needs before you answer.',
    '- Report what you found or did, with file paths and line numbers.',
    '',
  ].join('\n');
}

/** An agent file in one of the user's folders, offered by "Import Agents". */
export interface ImportCandidate {
  path: string;
  /** "Claude Code" or "Copilot". */
  from: string;
  /** Where it goes in the workspace, relative to the root: it keeps its own format there. */
  target: string;
}

/** Where a user-level agent file goes in the workspace: Claude Code's into .claude/agents, Copilot's into .github/agents. */
export function importTarget(path: string): ImportCandidate | undefined {
  const name = basename(path);
  const normalized = path.replace(/\\/g, '/');
  const claude = USER_AGENT_FOLDERS[0];
  const copilot = USER_AGENT_FOLDERS[1];
  if (normalized.includes(`/${claude.dir}/`) && name.endsWith('.md'))
    return { path, from: 'Claude Code', target: join(WORKSPACE_AGENT_FOLDERS[0].dir, name) };
  if (normalized.includes(`/${copilot.dir}/`) && name.endsWith('.md')) {
    const file = name.endsWith('.agent.md') ? name : name.replace(/\.md$/, '.agent.md');
    return { path, from: 'Copilot', target: join(WORKSPACE_AGENT_FOLDERS[1].dir, file) };
  }
  return undefined;
}
