import type { Profile, ProjectInstruction } from '../../config/profiles/profile';
import type { SupervisorSettings } from '../../config/settings/engineSettings';
import { projectInstructionsPrompt } from '../../config/instructions/projectInstructions';

const ROLE = `You are the supervisor in a VS Code workspace. You answer the user's requests, and you can delegate
work to subagents: specialists that share the open workspace with you but see only the task and the context you give them.`;

const GUIDELINES = `How to delegate well:
- Delegate when a task is self-contained and fits a subagent's description; answer simple questions yourself.
- Give each subagent a complete, specific task: what to do, what to return, and any constraint. It cannot ask you questions and does not see this conversation, so put what it needs in \`context\`.
- Independent pieces of work go in ONE delegate_task call: several agents on one task (\`agents\`), or a different task for each (\`tasks\`). They run in parallel and the call returns when all are done.
- When you have your own work to do meanwhile (a long review while you run the tests), delegate with \`background: true\` and keep working; each result is announced to you when it ends, or wait for it with background_runs.
- A subagent's result is its final report. If it says it assumed something, check the assumption.
- When the results come back, check them, resolve conflicts, and write the user one clear answer. Do not paste raw subagent output unless the user asked for it.
- If a subagent failed, say so plainly and decide whether to retry, try another agent, or do the work yourself.`;

const SOLO = `No subagents are available, so do the work yourself.`;

/** The prompt with the sections that follow every agent's own (the skills), then the project's instruction files (AGENTS.md, …). */
function withProject(prompt: string, project: readonly ProjectInstruction[] | undefined, sections: readonly string[] = []): string {
  return [prompt, ...sections, projectInstructionsPrompt(project)].filter(Boolean).join('\n\n');
}

/**
 * The supervisor's system prompt: its role, each allowed agent as `name: description`, our
 * delegation guidelines, then the user's own guidelines. `systemPrompt` in the settings replaces
 * all of ours; the project's instruction files (subagents.projectInstructions) follow either way.
 */
export function supervisorPrompt(
  agents: readonly Profile[],
  settings: SupervisorSettings,
  project?: readonly ProjectInstruction[],
  sections: readonly string[] = [],
): string {
  if (settings.systemPrompt?.trim()) return withProject(settings.systemPrompt, project, sections);
  const parts = [ROLE];
  if (agents.length === 0) parts.push(SOLO);
  else {
    parts.push(`Subagents you can delegate to (with delegate_task):\n${agents.map((a) => `- ${a.name}: ${a.description}`).join('\n')}`);
    parts.push(GUIDELINES);
  }
  if (settings.guidelines?.trim()) parts.push(`Guidelines from the user:\n${settings.guidelines.trim()}`);
  return withProject(parts.join('\n\n'), project, sections);
}

/** The instructions of a subagent: its own, how to report back to whoever delegated to it, and the project's instruction files. */
export function subagentPrompt(
  profile: Profile,
  delegates: readonly Profile[],
  project?: readonly ProjectInstruction[],
  sections: readonly string[] = [],
): string {
  const parts = [profile.instructions.trim() || `You are the "${profile.name}" subagent: ${profile.description}`];
  parts.push(`You work on a task delegated to you by another agent, in a VS Code workspace you share with it.
Nobody can be reached while you work: not the user, not your supervisor. Where your instructions say to ask, check or confirm with the user, decide yourself, go on, and state each assumption in your report.
End with a concise, complete report of what you found or did, in your last message: only that message reaches your supervisor, not what you wrote before it.`);
  if (delegates.length > 0) {
    parts.push(
      `You may delegate parts of your task (with delegate_task) to:\n${delegates.map((a) => `- ${a.name}: ${a.description}`).join('\n')}`,
    );
  }
  return withProject(parts.join('\n\n'), project, sections);
}
