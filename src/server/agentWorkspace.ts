import { readFileSync } from 'node:fs';
import { AgentFileCache } from '../core/config/agentFiles/agentFileLayers';
import { dialectOfPath } from '../core/config/agentFiles/agentFolders';
import { validateAgentFile, type AgentFileResult } from '../core/config/agentFiles/validateAgentFile';
import { DEFAULT_SETTINGS } from '../core/config/settings/engineSettings';
import type { ModelAvailability } from '../core/models/modelAliases';
import type { ProfileProblem } from '../core/config/profiles/profileProblem';
import { declareMcpServers } from '../core/config/mcp/mcpDeclarations';
import { loadWorkspaceProfiles, type WorkspaceProfiles } from '../core/config/profiles/workspaceProfiles';
import type { AgentServerOptions } from './serverProtocol';
import { checkSkillFile } from '../core/config/skills/checkSkillFile';
import { isSkillFilePath } from '../core/config/skills/skillFolders';
import { basename, dirname } from 'node:path';

export type { AgentServerOptions } from './serverProtocol';

/**
 * The language server's view of the agent files: the same loader as the extension and the CLI,
 * over the texts of open documents (unsaved edits included) and a cache of what it read from disk,
 * so a keystroke re-reads one file and re-checks the set, nothing more.
 */
export class AgentWorkspace {
  private readonly cache = new AgentFileCache();
  private readonly disk = new Map<string, string>();
  private readonly open = new Map<string, string>();
  private current: WorkspaceProfiles | undefined;

  constructor(
    private root: string | undefined,
    private options: AgentServerOptions = {},
  ) {}

  /** New settings (or a new folder): every file is checked again; open documents stay open. */
  configure(root: string | undefined, options: AgentServerOptions): void {
    this.root = root;
    this.options = options;
    this.cache.clear();
    this.current = undefined;
  }

  setOpen(path: string, text: string): void {
    this.open.set(path, text);
    this.current = undefined;
  }

  close(path: string): void {
    this.open.delete(path);
    this.current = undefined;
  }

  /** A file changed, appeared or went away on disk. */
  diskChanged(path: string): void {
    this.disk.delete(path);
    this.current = undefined;
  }

  /** Every profile, problem and file, as the extension would load them now. */
  profiles(): WorkspaceProfiles {
    if (this.current) return this.current;
    const { options } = this;
    const settings = { ...DEFAULT_SETTINGS, ...options.settings };
    const agents = options.agents ?? {};
    const trusted = options.trusted ?? true;
    // The servers of .mcp.json and .vscode/mcp.json: tools of theirs in an agent file are kept, not noted.
    const mcp = declareMcpServers({ root: this.root, trusted });
    this.current = loadWorkspaceProfiles({
      root: this.root,
      ...(options.home ? { home: options.home } : {}),
      trusted,
      userAgents: agents.user ?? {},
      workspaceAgents: [
        { source: 'workspace settings', profiles: agents.workspace ?? {} },
        { source: 'folder settings', profiles: agents.folder ?? {} },
      ],
      settings,
      ...(options.models ? { models: availability(options.models) } : {}),
      mcpServers: mcp.servers.map((d) => d.name),
      overlay: this.open,
      cache: this.cache,
      readText: (path) => this.read(path),
    });
    return this.current;
  }

  /** The result for one file: from the loaded set, or on its own when it lies outside the folders read. */
  file(path: string): AgentFileResult | undefined {
    const loaded = this.profiles().files.find((f) => f.info.path === path);
    if (loaded) return loaded;
    const dialect = dialectOfPath(path);
    const text = this.open.get(path);
    if (!dialect || text === undefined) return undefined;
    return validateAgentFile(text, { path, source: path, dialect });
  }

  /** Everything to show for a file: its own problems and the ones the set finds in it. */
  problemsFor(path: string): ProfileProblem[] {
    const set = this.profiles();
    const inSet = set.problems.filter((p) => p.path === path);
    if (set.files.some((f) => f.info.path === path)) return inSet;
    if (isSkillFilePath(path)) return this.skillProblems(path, inSet);
    return this.file(path)?.problems ?? [];
  }

  /** Files with errors or warnings, open or not: the Problems list shows them without opening each. */
  pathsWithProblems(): Set<string> {
    const paths = new Set<string>();
    for (const p of this.profiles().problems) if (p.path && p.severity !== 'information') paths.add(p.path);
    return paths;
  }

  /** A SKILL.md: what the loader said of it, or, when it read none of it (untrusted, not in a skill folder), the file checked alone. */
  private skillProblems(path: string, inSet: ProfileProblem[]): ProfileProblem[] {
    if (inSet.length > 0 || this.profiles().skills?.some((s) => s.path === path)) return inSet;
    const text = this.open.get(path);
    if (text === undefined) return [];
    return checkSkillFile(text, { path, source: path, folderName: basename(dirname(path)) }).problems;
  }

  private read(path: string): string {
    let text = this.disk.get(path);
    if (text === undefined) {
      text = readFileSync(path, 'utf8');
      this.disk.set(path, text);
    }
    return text;
  }
}

function availability(models: NonNullable<AgentServerOptions['models']>): ModelAvailability {
  return {
    ...(models.editorModels ? { editorModels: models.editorModels } : {}),
    hasKey: (provider) => models.keys?.includes(provider) ?? false,
    keyHint: () => 'run "Subagents: Set API Key"',
  };
}
