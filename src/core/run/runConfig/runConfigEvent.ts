import type { RunConfig, RunLimit } from '../../../shared/events';
import { DELEGATION_TOOLS } from '../../config/agentFiles/toolNames';
import type { Profile, ProjectInstruction } from '../../config/profiles/profile';
import type { RunToolSelection } from '../../tools/selectRunTools';
import type { ModelChoiceText } from './describeModelChoice';

export interface RunConfigInput {
  profile: Profile;
  model: ModelChoiceText & { effective: string };
  tools: RunToolSelection;
  /** Why the run got no delegation tools, when it got none (the depth limit, nobody to delegate to). */
  noDelegation?: string;
  limits: { maxSteps: RunLimit; timeoutMs?: RunLimit; maxTokens?: RunLimit };
  systemPrompt: string;
  taskMessage: string;
  projectInstructions?: readonly ProjectInstruction[];
}

/**
 * What a run was actually given, as its run.config event records it: declared against effective
 * for the profile's source, the model, the tools (with why each missing one is missing), the
 * limits with their sources, and the words sent. The inspector, `threads show --effective` and a
 * reloaded thread all read this one record.
 */
export function runConfigOf(input: RunConfigInput): RunConfig {
  const { profile, tools } = input;
  const effective = tools.tools.filter((t) => !tools.hidden.includes(t.name)).map((t) => t.name);
  const removed = [...tools.removed];
  if (input.noDelegation) {
    for (const tool of DELEGATION_TOOLS)
      if (!effective.includes(tool) && !removed.some((r) => r.tool === tool)) removed.push({ tool, reason: input.noDelegation });
  }
  const project = input.projectInstructions?.map((p) => p.name) ?? [];
  const declared = {
    ...(profile.tools ? { tools: [...profile.tools] } : {}),
    ...(profile.disallowedTools ? { disallowedTools: [...profile.disallowedTools] } : {}),
  };
  return {
    profileSource: profile.source,
    ...(profile.origin ? { profilePath: profile.origin.path } : {}),
    model: { requested: input.model.requested, effective: input.model.effective, via: input.model.via },
    tools: { effective, removed, ...(Object.keys(declared).length ? { declared } : {}) },
    limits: input.limits,
    systemPrompt: input.systemPrompt,
    taskMessage: input.taskMessage,
    ...(project.length ? { projectInstructions: project } : {}),
  };
}
