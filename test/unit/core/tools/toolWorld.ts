import { lstat, mkdir, mkdtemp, readdir, readFile, readlink, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EngineSettings } from '../../../../src/core/config/settings/engineSettings';
import { nodeWorkspace } from '../../../../src/core/engine/nodeWorkspace';
import type { Script } from '../../../../src/core/models/scriptSchema';
import type { ApprovalRequest, Approver, CommandRequest, CommandResult, Workspace } from '../../../../src/core/ports';
import type { ProfileInput } from '../../../../src/core/config/profiles/profile';
import type { ApprovalDecision, RunEvent, RunEventOf } from '../../../../src/shared/events';
import { makeEngine } from '../engineHarness';

/**
 * A real temp directory laid out like the attacks expect: the workspace at base/a/ws, a sibling
 * base/a/ws-other that shares its prefix, and a decoy base/etc/passwd that `../../etc/passwd`
 * from the workspace reaches, so an escape would be caught here instead of touching the machine.
 */
export async function makeWorld() {
  const base = await realpath(await mkdtemp(join(tmpdir(), 'subagents-tools-')));
  const root = join(base, 'a', 'ws');
  const sibling = join(base, 'a', 'ws-other');
  await mkdir(root, { recursive: true });
  await mkdir(sibling, { recursive: true });
  await mkdir(join(base, 'etc'));
  await writeFile(join(base, 'etc', 'passwd'), 'root:x:0:0:decoy\n');
  await writeFile(join(sibling, 'secret.txt'), 'sibling secret\n');
  return { base, root, sibling, cleanup: () => rm(base, { recursive: true, force: true }) };
}

/** Every file, folder and link under dir with its content (or target): equal snapshots, nothing changed. */
export async function snapshot(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (rel: string) => {
    for (const name of await readdir(join(dir, rel))) {
      const path = rel ? `${rel}/${name}` : name;
      const info = await lstat(join(dir, path));
      if (info.isSymbolicLink()) out[path] = `-> ${await readlink(join(dir, path))}`;
      else if (info.isDirectory()) {
        out[`${path}/`] = 'dir';
        await walk(path);
      } else out[path] = await readFile(join(dir, path), 'utf8');
    }
  };
  await walk('');
  return out;
}

/** An approver that records each request and answers with `answer`. */
export class RecordingApprover implements Approver {
  readonly requests: ApprovalRequest[] = [];
  constructor(private readonly answer: (request: ApprovalRequest) => ApprovalDecision | Promise<ApprovalDecision>) {}
  async request(request: ApprovalRequest): Promise<ApprovalDecision> {
    this.requests.push(request);
    return this.answer(request);
  }
}

/** A node workspace that also records what reached the host: commands, questions, installs. */
export function spyWorkspace(root: string, trusted = true, intercept?: CommandInterceptor) {
  const inner = nodeWorkspace({ root, trusted, askUser: async () => 'an answer' });
  const commands: CommandRequest[] = [];
  const questions: string[] = [];
  const installs: string[] = [];
  const workspace: Workspace = {
    ...inner,
    root,
    trusted,
    runCommand: (request) => {
      commands.push(request);
      return intercept ? intercept(request, (r) => inner.runCommand(r)) : inner.runCommand(request);
    },
    askUser: (question, signal) => {
      questions.push(question);
      return inner.askUser(question, signal);
    },
    installExtension: async (id) => void installs.push(id),
  };
  return { workspace, commands, questions, installs };
}

/** Stands between a command and the host: answers it itself, or passes it on with `run`. */
export type CommandInterceptor = (
  request: CommandRequest,
  run: (request: CommandRequest) => Promise<CommandResult>,
) => Promise<CommandResult>;

export interface RunOptions {
  root: string;
  interceptCommand?: CommandInterceptor;
  approver?: Approver;
  settings?: Partial<EngineSettings>;
  agents?: Record<string, ProfileInput>;
  trusted?: boolean;
}

/** Runs a script through the real engine over a spied workspace; returns the events and the spies. */
export async function runScript(script: Script, options: RunOptions) {
  const spy = spyWorkspace(options.root, options.trusted ?? true, options.interceptCommand);
  const h = makeEngine(script, {
    workspace: spy.workspace,
    ...(options.approver ? { approver: options.approver } : {}),
    ...(options.settings ? { settings: options.settings } : {}),
    ...(options.agents ? { agents: options.agents } : {}),
  });
  const { threadId, done } = await h.engine.send({ prompt: 'go' });
  const finished = await done;
  await h.engine.whenQuiet(threadId);
  const toolResults = (tool: string) =>
    h.events.filter((e): e is RunEventOf<'tool.finished'> => e.kind === 'tool.finished' && e.tool === tool).map((e) => e.output);
  const ofKind = <K extends RunEvent['kind']>(kind: K) => h.events.filter((e): e is RunEventOf<K> => e.kind === kind);
  return { h, finished, toolResults, ofKind, ...spy };
}

/** A supervisor that makes these tool calls in one step, then says done. */
export function supervisorCalls(...calls: { tool: string; input: unknown }[]): Script {
  return { agents: { supervisor: [{ toolCalls: calls }, { text: 'done' }] } };
}
