import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { WORKSPACE_AGENT_FOLDERS } from '../../core/config/agentFiles/agentFolders';
import { settingsKeyLine } from '../../core/config/settings/settingsKeyLine';
import { agentPlaces, type AgentPlace } from './agentPlaces';

/**
 * "Subagents: Configure Agents": where agents are defined, to open one, or a new agent file in
 * .vscode/agents/. Settings open at `subagents.agents`.
 */
export async function configureAgentsCommand(root: string | undefined): Promise<void> {
  const agentFiles = root ? workspaceAgentFiles(root) : [];
  const settingsFile = root ? workspaceSettingsFile(root) : undefined;
  let workspaceSettings: { path: string; label: string; line: number | undefined } | undefined;
  if (settingsFile) {
    const text = fs.existsSync(settingsFile.path) ? fs.readFileSync(settingsFile.path, 'utf8') : undefined;
    workspaceSettings = { ...settingsFile, line: text === undefined ? undefined : settingsKeyLine(text, ['subagents.agents']) };
  }
  const places = agentPlaces({ root, agentFiles, ...(workspaceSettings ? { workspaceSettings } : {}) });
  const picked = await vscode.window.showQuickPick(places, {
    title: 'Configure Agents',
    placeHolder: 'Open where agents are defined, or make a new one',
  });
  if (picked) await openPlace(picked);
}

async function openPlace(place: AgentPlace): Promise<void> {
  switch (place.place) {
    case 'file':
      await vscode.window.showTextDocument(vscode.Uri.file(place.path));
      return;
    case 'new':
      await vscode.commands.executeCommand('subagents.newAgentFile');
      return;
    case 'settings':
      if (place.scope === 'user') {
        await vscode.commands.executeCommand('workbench.action.openSettingsJson', { revealSetting: { key: 'subagents.agents' } });
      } else if (place.path && place.line) {
        const line = place.line - 1;
        await vscode.window.showTextDocument(vscode.Uri.file(place.path), { selection: new vscode.Range(line, 0, line, 0) });
      } else {
        await vscode.commands.executeCommand('workbench.action.openWorkspaceSettingsFile', { revealSetting: { key: 'subagents.agents' } });
      }
  }
}

function workspaceAgentFiles(root: string): { rel: string; path: string }[] {
  return WORKSPACE_AGENT_FOLDERS.flatMap((folder) => {
    let names: string[] = [];
    try {
      names = fs
        .readdirSync(path.join(root, folder.dir))
        .filter((n) => folder.suffixes.some((s) => n.endsWith(s)))
        .sort();
    } catch {
      return [];
    }
    return names.map((n) => ({ rel: `${folder.dir}/${n}`, path: path.join(root, folder.dir, n) }));
  });
}

function workspaceSettingsFile(root: string): { path: string; label: string } {
  const file = vscode.workspace.workspaceFile;
  if (file?.scheme === 'file') return { path: file.fsPath, label: path.basename(file.fsPath) };
  return { path: path.join(root, '.vscode', 'settings.json'), label: '.vscode/settings.json' };
}
