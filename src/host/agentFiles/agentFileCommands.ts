import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { agentTemplate, importTarget } from '../../core/config/agentFiles/agentTemplate';
import { USER_AGENT_FOLDERS, WORKSPACE_AGENT_FOLDERS } from '../../core/config/agentFiles/agentFolders';
import { validateAgentFile } from '../../core/config/agentFiles/validateAgentFile';
import { profileNameSchema } from '../../core/config/profiles/profile';

function workspaceRoot(): string | undefined {
  const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  if (!root) void vscode.window.showErrorMessage('Open a folder first: agent files live in the workspace (.vscode/agents).');
  return root;
}

async function open(file: string): Promise<void> {
  await vscode.window.showTextDocument(vscode.Uri.file(file));
}

/** "Subagents: New Agent File": asks for an id, writes .vscode/agents/<id>.md from the template, opens it. */
export async function newAgentFileCommand(): Promise<void> {
  const root = workspaceRoot();
  if (!root) return;
  const id = await vscode.window.showInputBox({
    title: 'New Agent File',
    prompt: "The agent's id: lowercase letters, digits and dashes. The file is .vscode/agents/<id>.md.",
    placeHolder: 'reviewer',
    ignoreFocusOut: true,
    validateInput: (value) =>
      profileNameSchema.safeParse(value.trim()).success ? undefined : 'Use lowercase letters, digits and dashes, starting with a letter.',
  });
  if (!id) return;
  const file = path.join(root, WORKSPACE_AGENT_FOLDERS[2].dir, `${id.trim()}.md`);
  if (fs.existsSync(file)) {
    void vscode.window.showInformationMessage(`${path.relative(root, file)} exists already; it is open now.`);
    return open(file);
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, agentTemplate(id.trim()), { flag: 'wx' });
  await open(file);
}

/** "Subagents: Import Agents": copies chosen files of ~/.claude/agents and ~/.copilot/agents into the workspace, as they are. */
export async function importAgentsCommand(): Promise<void> {
  const root = workspaceRoot();
  if (!root) return;
  const home = os.homedir();
  const items: (vscode.QuickPickItem & { file: string; target: string })[] = [];
  for (const folder of USER_AGENT_FOLDERS) {
    const dir = path.join(home, folder.dir);
    let names: string[] = [];
    try {
      names = fs
        .readdirSync(dir)
        .filter((n) => n.endsWith('.md'))
        .sort();
    } catch {
      continue;
    }
    for (const name of names) {
      const file = path.join(dir, name);
      const candidate = importTarget(file);
      if (!candidate) continue;
      const result = validateAgentFile(fs.readFileSync(file, 'utf8'), {
        path: file,
        source: `~/${folder.dir}/${name}`,
        dialect: folder.dialect,
      });
      const description =
        typeof result.input?.['description'] === 'string'
          ? (result.input['description'] as string)
          : 'cannot be read as an agent; its problems show once it is imported';
      items.push({
        label: result.id,
        description: `${candidate.from}: ~/${folder.dir}/${name}`,
        detail: description,
        file,
        target: candidate.target,
        picked: false,
      });
    }
  }
  if (items.length === 0) {
    void vscode.window.showInformationMessage(
      'There are no agent files in ~/.claude/agents or ~/.copilot/agents to import. (They are read as your own agents anyway, unless "subagents.userAgentFolders" switches them off.)',
    );
    return;
  }
  const picked = await vscode.window.showQuickPick(items, {
    title: 'Import Agents into this workspace',
    canPickMany: true,
    placeHolder: 'Copies the files as they are, into .claude/agents or .github/agents',
  });
  if (!picked?.length) return;
  const copied: string[] = [];
  const skipped: string[] = [];
  for (const item of picked) {
    const target = path.join(root, item.target);
    if (fs.existsSync(target)) {
      skipped.push(item.target);
      continue;
    }
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.copyFileSync(item.file, target, fs.constants.COPYFILE_EXCL);
    copied.push(item.target);
  }
  const untrusted = vscode.workspace.isTrusted ? '' : ' This workspace is not trusted, so its agent files are not used until you trust it.';
  const skip = skipped.length ? ` Left alone (already there): ${skipped.join(', ')}.` : '';
  void vscode.window.showInformationMessage(
    `Imported ${copied.length} agent file${copied.length === 1 ? '' : 's'}: ${copied.join(', ') || 'none'}.${skip}${untrusted}`,
  );
  if (copied.length === 1) await open(path.join(root, copied[0]!));
}
