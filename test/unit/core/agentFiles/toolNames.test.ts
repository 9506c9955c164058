import { describe, expect, it } from 'vitest';
import { DELEGATION_TOOLS, WORKSPACE_TOOLS, mapClaudeTool, mapCopilotTool } from '../../../../src/core/config/agentFiles/toolNames';
import { delegateTaskTool } from '../../../../src/core/run/delegation/delegateTask';
import type { DelegationDeps } from '../../../../src/core/run/delegation/delegationTypes';
import { backgroundRunsTool } from '../../../../src/core/run/delegation/backgroundRuns';
import { workspaceTools, type WorkspaceToolDeps } from '../../../../src/core/tools/workspaceTools';

const ours = (m: ReturnType<typeof mapClaudeTool>) => (m.kind === 'ours' ? [...m.tools] : m.kind);

describe('the tool table', () => {
  it('names exactly the tools of the real registry (building a tool touches none of its dependencies)', () => {
    expect(workspaceTools({} as WorkspaceToolDeps).map((t) => t.name)).toEqual([...WORKSPACE_TOOLS]);
    const deps = {} as DelegationDeps;
    expect([delegateTaskTool(deps), backgroundRunsTool(deps)].map((t) => t.name)).toEqual([...DELEGATION_TOOLS]);
  });

  it('maps every Claude Code tool name, in any case', () => {
    expect(ours(mapClaudeTool('Read'))).toEqual(['read_file']);
    expect(ours(mapClaudeTool('grep'))).toEqual(['search_text']);
    expect(ours(mapClaudeTool('Glob'))).toEqual(['find_files']);
    expect(ours(mapClaudeTool('LS'))).toEqual(['list_dir']);
    expect(ours(mapClaudeTool('Bash'))).toEqual(['run_command']);
    expect(ours(mapClaudeTool('MultiEdit'))).toEqual(['edit_file']);
    expect(ours(mapClaudeTool('NotebookRead'))).toEqual(['read_file']);
    expect(ours(mapClaudeTool('Task'))).toEqual([...DELEGATION_TOOLS]);
    expect(mapClaudeTool('WebFetch')).toMatchObject({ kind: 'ours', tools: ['web_fetch'] });
    expect(mapClaudeTool('WebSearch')).toMatchObject({ kind: 'later', tool: 'web_search' });
    expect(mapClaudeTool('TodoWrite')).toMatchObject({ kind: 'ours', tools: ['todo_write'] });
    expect(mapClaudeTool('ExitPlanMode')).toMatchObject({ kind: 'none' });
    expect(mapClaudeTool('Frobnicate')).toEqual({ kind: 'unknown' });
  });

  it('reads Task(a, b) as delegation to those agents, and Bash(git:*) as run_command with a note', () => {
    expect(mapClaudeTool('Task(reviewer, tester)')).toMatchObject({
      kind: 'ours',
      tools: DELEGATION_TOOLS,
      agents: ['reviewer', 'tester'],
    });
    expect(mapClaudeTool('Bash(git:*)')).toMatchObject({
      kind: 'ours',
      tools: ['run_command'],
      approximate: expect.stringMatching(/git:\*/),
    });
  });

  it('maps MCP tool names to mcp__server__tool', () => {
    expect(mapClaudeTool('mcp__context7__get-library-docs')).toEqual({
      kind: 'mcp',
      server: 'context7',
      name: 'mcp__context7__get-library-docs',
    });
    expect(mapCopilotTool('github/*')).toEqual({ kind: 'mcp', server: 'github', name: 'mcp__github__*' });
    expect(mapCopilotTool('github/list_issues')).toEqual({ kind: 'mcp', server: 'github', name: 'mcp__github__list_issues' });
    expect(mapCopilotTool('microsoft.docs.mcp')).toMatchObject({ kind: 'mcp', name: 'mcp__microsoft.docs.mcp__*' });
  });

  it('maps Copilot tool sets to all their tools, and namespaced and flat tools to ours', () => {
    expect(ours(mapCopilotTool('search'))).toEqual(['find_files', 'search_text', 'list_dir', 'read_file']);
    expect(ours(mapCopilotTool('edit'))).toEqual(['edit_file', 'write_file']);
    expect(ours(mapCopilotTool('read'))).toEqual(['read_file']);
    expect(ours(mapCopilotTool('execute'))).toEqual(['run_command']);
    expect(ours(mapCopilotTool('agent'))).toEqual([...DELEGATION_TOOLS]);
    expect(mapCopilotTool('web')).toMatchObject({ kind: 'ours', tools: ['web_fetch'] });
    expect(mapCopilotTool('web/fetch')).toMatchObject({ kind: 'ours', tools: ['web_fetch'] });
    expect(mapCopilotTool('fetch')).toMatchObject({ kind: 'ours', tools: ['web_fetch'] });
    expect(mapCopilotTool('todo')).toMatchObject({ kind: 'ours', tools: ['todo_write'] });
    expect(ours(mapCopilotTool('edit/editFiles'))).toEqual(['edit_file', 'write_file']);
    expect(ours(mapCopilotTool('execute/runInTerminal'))).toEqual(['run_command']);
    expect(ours(mapCopilotTool('read/readFile'))).toEqual(['read_file']);
    expect(ours(mapCopilotTool('search/fileSearch'))).toEqual(['find_files']);
    expect(ours(mapCopilotTool('search/textSearch'))).toEqual(['search_text']);
    expect(ours(mapCopilotTool('search/listDirectory'))).toEqual(['list_dir']);
    expect(ours(mapCopilotTool('codebase'))).toEqual(['search_text', 'find_files', 'read_file']);
    expect(ours(mapCopilotTool('runCommands'))).toEqual(['run_command']);
    expect(mapCopilotTool('read/problems')).toMatchObject({ kind: 'none' });
    expect(mapCopilotTool('ms-python.python/installPythonPackage')).toMatchObject({ kind: 'later' });
    expect(mapCopilotTool('somethingElse')).toEqual({ kind: 'unknown' });
  });
});
