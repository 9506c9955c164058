import { renamedTool } from './renamedTools';

/**
 * THE table from Claude Code's and Copilot's tool names to ours, in one place: the importer, the
 * validator, the language server's completion, hover and quick fixes all read it. Names are
 * matched without regard to case (Claude Code writes `Read`, people write `read`).
 */

/** Our workspace tools, as the tool registry names them (test/unit/core/agentFiles/toolNames.test.ts checks). */
export const WORKSPACE_TOOLS = [
  'read_file',
  'list_dir',
  'find_files',
  'search_text',
  'write_file',
  'edit_file',
  'run_command',
  'ask_user',
  'open_file',
  'install_package',
  'install_extension',
  'web_fetch',
  'todo_write',
] as const;

/** The tools that let an agent delegate; naming `Task` or `agent` allows them all. */
export const DELEGATION_TOOLS = ['delegate_task', 'background_runs'] as const;

/** The tool that hands an agent a skill's instructions (offered when there are skills). */
export const SKILL_TOOL = 'load_skill';

/** Every tool name a profile's `tools` may hold today (MCP names aside). */
export const OUR_TOOLS: readonly string[] = [...WORKSPACE_TOOLS, ...DELEGATION_TOOLS, SKILL_TOOL];

/** What a foreign tool name means here. */
export type ToolMapping =
  /** Our tools do it; `approximate` says how they differ, for a note. */
  | { kind: 'ours'; tools: readonly string[]; approximate?: string; agents?: string[] }
  /** A capability of a later version (web search, editor tools). */
  | { kind: 'later'; tool: string; what: string }
  /** A tool of an MCP server, under our name for it: mcp__<server>__<tool> (or __* for all). */
  | { kind: 'mcp'; server: string; name: string }
  /** A name we know that has nothing like it here. */
  | { kind: 'none'; why: string }
  | { kind: 'unknown' };

const READ = ['read_file'];
const WRITE = ['write_file'];
const EDIT = ['edit_file'];
const EDIT_AND_WRITE = ['edit_file', 'write_file'];
const RUN = ['run_command'];
/**
 * Copilot's `search` set held `readFile` until VS Code 1.106 (its tools still answer to the legacy
 * name `search/readFile`), and today holds `searchSubagent`, which reads files: files written for
 * either read through `search`.
 */
const SEARCH_SET = ['find_files', 'search_text', 'list_dir', 'read_file'];
/** `codebase` returns the relevant code, or the whole workspace when it is small: it reads files. */
const CODEBASE = ['search_text', 'find_files', 'read_file'];
const ours = (tools: readonly string[], approximate?: string): ToolMapping => ({
  kind: 'ours',
  tools,
  ...(approximate ? { approximate } : {}),
});
const later = (tool: string, what: string): ToolMapping => ({ kind: 'later', tool, what });
const none = (why: string): ToolMapping => ({ kind: 'none', why });

const WEB_FETCH = ours(
  ['web_fetch'],
  'the page comes back as Markdown; it asks before fetching from a host that is not one of your subagents.trustedDomains',
);
const WEB_SEARCH = later('web_search', 'web search comes with a later version');
const TODO = ours(['todo_write']);
const TASK_LIST = ours(['todo_write'], 'one checklist per agent (todo_write sends the whole list each time), not separate task records');
const DELEGATE = ours(DELEGATION_TOOLS);
const NO_TERMINAL = "run_command returns each command's output itself; there is no terminal to read";

/** Claude Code's tools (https://docs.anthropic.com/en/docs/claude-code/settings#tools-available-to-claude). */
export const CLAUDE_TOOLS: Readonly<Record<string, ToolMapping>> = {
  read: ours(READ),
  write: ours(WRITE),
  edit: ours(EDIT),
  multiedit: ours(EDIT),
  notebookread: ours(READ, 'a notebook is read as its JSON text'),
  notebookedit: ours(EDIT, 'a notebook is edited as its JSON text'),
  grep: ours(['search_text']),
  glob: ours(['find_files']),
  ls: ours(['list_dir']),
  bash: ours(RUN),
  bashoutput: ours(RUN, 'commands do not run in the background: run_command waits for each and returns its output'),
  killbash: ours(RUN, 'commands do not run in the background; run_command stops a command at its timeout'),
  killshell: ours(RUN, 'commands do not run in the background; run_command stops a command at its timeout'),
  task: DELEGATE,
  agent: DELEGATE,
  askuserquestion: ours(['ask_user']),
  todowrite: TODO,
  todoread: ours(['todo_write'], 'the plan is shown to the user; the agent keeps its own list and sends it whole'),
  taskcreate: TASK_LIST,
  taskget: TASK_LIST,
  tasklist: TASK_LIST,
  taskupdate: TASK_LIST,
  webfetch: WEB_FETCH,
  websearch: WEB_SEARCH,
  exitplanmode: none('there is no plan mode here'),
  enterplanmode: none('there is no plan mode here'),
  skill: ours(
    [SKILL_TOOL],
    'a skill is loaded by name with load_skill; its files beside it are read with read_file (or load_skill for your own skills)',
  ),
  slashcommand: none('slash commands are a Claude Code feature'),
  sendmessage: none('agent teams are a Claude Code feature; a supervisor here hears from its subagents when they finish'),
  teamcreate: none('agent teams are a Claude Code feature'),
  teamdelete: none('agent teams are a Claude Code feature'),
  listmcpresourcestool: none('MCP resources are not read here'),
  readmcpresourcetool: none('MCP resources are not read here'),
};

/**
 * Copilot's tool sets, as VS Code and the Copilot extension define them (the extension's
 * `languageModelToolSets`, checked against its package.json from 2025-07 to 2026-03): a set name
 * stands for all its tools, and sets of earlier versions keep their meaning, since agent files
 * written for them are still about (`editFiles`, `runCommands`, `runTasks`, `new`, `runNotebooks`).
 */
export const COPILOT_TOOL_SETS: Readonly<Record<string, ToolMapping>> = {
  // createDirectory, createFile, editFiles, editNotebook, rename (and createJupyterNotebook)
  edit: ours(EDIT_AND_WRITE),
  // runInTerminal, getTerminalOutput, runTask, runTests… (and runNotebookCell, testFailure)
  execute: ours(RUN),
  // readFile, problems, viewImage, the notebook readers, terminalSelection, terminalLastCommand
  read: ours(READ),
  // codebase, fileSearch, textSearch, listDirectory, usages, changes, searchResults, searchSubagent (readFile before 1.106)
  search: ours(SEARCH_SET),
  // fetch, githubRepo
  web: ours(['web_fetch'], 'fetching pages only; there is no web search here'),
  agent: DELEGATE,
  todo: TODO,
  vscode: ours(
    ['ask_user', 'install_extension'],
    'only asking the user and installing extensions; VS Code commands and APIs are not tools here',
  ),
  // Sets of 2025: runInTerminal and getTerminalOutput; createAndRunTask, runTask and getTaskOutput.
  runcommands: ours(RUN),
  runtasks: ours(RUN, 'a task runs as its command line'),
  // newWorkspace, runVscodeCommand, getProjectSetupInfo, installExtension
  new: ours(['install_extension'], 'only installing extensions; creating a workspace and VS Code commands are not tools here'),
  runnotebooks: none('notebook cells do not run here'),
  notebooks: none('notebook cells do not run here'),
};

/** Copilot's tools, by their name alone (flat, or the part after `area/`). */
export const COPILOT_TOOLS: Readonly<Record<string, ToolMapping>> = {
  readfile: ours(READ),
  writefile: ours(WRITE),
  editfiles: ours(EDIT_AND_WRITE),
  createfile: ours(WRITE),
  createdirectory: ours(WRITE, 'folders are made when a file is written into them'),
  editnotebook: ours(EDIT, 'a notebook is edited as its JSON text'),
  listdirectory: ours(['list_dir']),
  filesearch: ours(['find_files']),
  findtestfiles: ours(['find_files'], 'test files are found by name patterns'),
  textsearch: ours(['search_text']),
  codebase: ours(CODEBASE, 'text and file-name search, and reading the files found; there is no semantic (embedding) search here'),
  searchsubagent: ours(SEARCH_SET, 'the agent searches and reads itself; there is no search subagent here'),
  usages: ours(['search_text'], 'references are found by text search, not by the language service'),
  runinterminal: ours(RUN),
  terminalcommand: ours(RUN),
  shell: ours(RUN),
  runtask: ours(RUN, 'a task runs as its command line'),
  createandruntask: ours(RUN, 'a task runs as its command line'),
  runtests: ours(RUN, 'tests run as a command'),
  getterminaloutput: ours(RUN, NO_TERMINAL),
  awaitterminal: ours(RUN, NO_TERMINAL),
  killterminal: ours(RUN, NO_TERMINAL),
  runsubagent: DELEGATE,
  askquestions: ours(['ask_user']),
  installextension: ours(['install_extension']),
  fetch: WEB_FETCH,
  githubrepo: later('web_search', 'searching GitHub repositories comes with a later version'),
  todos: TODO,
  problems: none("the editor's Problems list is not a tool here"),
  terminalselection: none(NO_TERMINAL),
  terminallastcommand: none(NO_TERMINAL),
  gettaskoutput: none(NO_TERMINAL),
  testfailure: none('there is no test-results view here; run the tests with run_command'),
  changes: none('there is no source-control view here; git runs through run_command'),
  searchresults: none('there is no search view here'),
  newworkspace: none('creating a new workspace is not a tool here'),
  getprojectsetupinfo: none('creating a new workspace is not a tool here'),
  extensions: none('browsing the marketplace is not a tool here'),
  vscodeapi: none("VS Code's API documentation is not a tool here"),
  runcommand: none('VS Code commands are not tools here'),
  opensimplebrowser: none('there is no browser here'),
  memory: none('there is no memory tool here'),
  runnotebookcell: none('notebook cells do not run here'),
  runcell: none('notebook cells do not run here'),
  runvscodecommand: none('VS Code commands are not tools here'),
  readnotebookcelloutput: none('notebook cells do not run here'),
  viewimage: none('images are not read here'),
  rename: none('there is no rename refactoring here'),
};

const key = (name: string): string => name.toLowerCase().replace(/[^a-z0-9]/g, '');

/** `mcp__server__tool` (Claude Code) as server and tool; undefined for other names. */
function claudeMcp(name: string): ToolMapping | undefined {
  const m = /^mcp__([^_](?:[^_]|_(?!_))*)(?:__(.+))?$/.exec(name);
  if (!m) return undefined;
  return { kind: 'mcp', server: m[1]!, name: `mcp__${m[1]}__${m[2] ?? '*'}` };
}

/** `Task(a, b)` / `Agent(a)`: delegation to those agents only. `Bash(git:*)`: a permission rule. */
function withArguments(name: string): ToolMapping | undefined {
  const m = /^(\w+)\((.*)\)$/.exec(name.trim());
  if (!m) return undefined;
  const base = mapClaudeTool(m[1]!);
  if (base.kind !== 'ours') return base;
  if (base.tools === DELEGATION_TOOLS) {
    const agents = m[2]!
      .split(',')
      .map((a) => a.trim())
      .filter(Boolean);
    return { ...base, agents };
  }
  return { ...base, approximate: `the rule "${m[2]}" is not enforced per agent: the approval settings decide what runs unasked` };
}

/** A Claude Code tool name (or `mcp__…`, or `Task(agent)`) in our terms. */
export function mapClaudeTool(name: string): ToolMapping {
  return claudeMcp(name) ?? withArguments(name) ?? CLAUDE_TOOLS[key(name)] ?? ourOwn(name) ?? { kind: 'unknown' };
}

/** A Copilot tool, tool set, `area/tool`, `<server>/<tool>` or `<publisher.extension>/<tool>` name in our terms. */
export function mapCopilotTool(name: string): ToolMapping {
  const trimmed = name.trim();
  if (trimmed === '*') return ours(OUR_TOOLS);
  const slash = trimmed.indexOf('/');
  if (slash < 0) {
    const known = COPILOT_TOOL_SETS[key(trimmed)] ?? COPILOT_TOOLS[key(trimmed)] ?? claudeMcp(trimmed) ?? ourOwn(trimmed);
    if (known) return known;
    // A bare MCP server name ("microsoft.docs.mcp") stands for all of that server's tools.
    return /mcp/i.test(trimmed) ? { kind: 'mcp', server: trimmed, name: `mcp__${trimmed}__*` } : { kind: 'unknown' };
  }
  const area = trimmed.slice(0, slash);
  const tool = trimmed.slice(slash + 1);
  const set = COPILOT_TOOL_SETS[key(area)];
  if (set) {
    if (tool === '*') return set;
    const mapped = COPILOT_TOOLS[key(tool)] ?? none(`"${tool}" is not a tool of Copilot's "${area}" set that we know`);
    // "read/editFiles" reads as a reader and would give edit_file: a tool gives no more than the set it is written under.
    const within = set.kind === 'ours' ? set.tools : [];
    if (mapped.kind === 'ours' && !mapped.tools.every((t) => within.includes(t))) {
      return none(
        `"${tool}" is not a tool of Copilot's "${area}" set: it would give ${mapped.tools.join(', ')}, more than "${area}" gives${within.length ? ` (${within.join(', ')})` : ''}; name it under its own set`,
      );
    }
    return mapped;
  }
  // A dot in the first part names a VS Code extension (ms-python.python/installPythonPackage).
  if (area.includes('.') && !/mcp/i.test(area)) return later(trimmed, 'tools of other VS Code extensions come with a later version');
  const server = area.replace(/[^\w.-]/g, '_');
  return { kind: 'mcp', server, name: `mcp__${server}__${tool === '*' ? '*' : tool}` };
}

/** Our own name, written by someone who knew it (or an MCP name in our form); an old name of ours as what does it now. */
function ourOwn(name: string): ToolMapping | undefined {
  if (OUR_TOOLS.includes(name)) return ours([name]);
  const renamed = renamedTool(name);
  if (renamed) return ours(renamed.tools, `${name} was renamed: it is now ${renamed.how}`);
  if (name === 'web_search') return later(name, `${name} comes with a later version`);
  return undefined;
}

/** For our own files and settings: is this one of our tool names (or an MCP tool name)? */
export function isOurToolName(name: string): boolean {
  return OUR_TOOLS.includes(name) || /^mcp__[^_]/.test(name);
}

/** Claude Code's own spelling of its tools, for completion in Claude files. */
export const CLAUDE_TOOL_NAMES = [
  'Read',
  'Write',
  'Edit',
  'MultiEdit',
  'Grep',
  'Glob',
  'LS',
  'Bash',
  'Task',
  'NotebookRead',
  'NotebookEdit',
  'WebFetch',
  'WebSearch',
  'TodoWrite',
  'AskUserQuestion',
];

/** Copilot's tool sets and tools as it spells them, for completion in Copilot files. */
export const COPILOT_TOOL_NAMES = [
  'search',
  'edit',
  'read',
  'execute',
  'web',
  'agent',
  'todo',
  'vscode',
  'search/codebase',
  'search/fileSearch',
  'search/textSearch',
  'search/listDirectory',
  'search/usages',
  'edit/editFiles',
  'edit/createFile',
  'edit/createDirectory',
  'read/readFile',
  'execute/runInTerminal',
  'execute/getTerminalOutput',
  'execute/runTests',
  'execute/runTask',
  'web/fetch',
  'agent/runSubagent',
];
