import { z } from 'zod';
import { listsTool } from '../config/profiles/toolPatterns';
import type { Capability, AnyToolSpec } from './toolSpec';

export interface RunToolContext {
  /** 0 for a thread's top run; children are 1 and deeper. */
  depth: number;
  /** False in an untrusted workspace. */
  trusted: boolean;
  /** The profile's allowlist and denylist of tool names. */
  allow?: readonly string[];
  deny?: readonly string[];
}

export interface RunToolSelection {
  /** Every tool the SDK can execute for this run: the visible ones and the refusing stand-ins. */
  tools: AnyToolSpec[];
  /** Names the model is never shown; a call to one is forged, and its stand-in refuses it. */
  hidden: string[];
  /** Every tool the run does not get, and why (for the run's effective configuration). */
  removed: { tool: string; reason: string }[];
}

/** Only the supervisor talks to the user and changes the machine beyond the workspace. */
const CHILD_BARRED: readonly Capability[] = ['interactive', 'install'];
/** What an untrusted workspace turns off: anything that changes files or runs code. */
const UNTRUSTED_BARRED: readonly Capability[] = ['write', 'exec', 'install'];

const HAND_BACK =
  'is not available to subagents: only your supervisor can talk to the user or install things. Nothing was done. ' +
  'Finish your task as far as you can and put the question or the request in your final answer, so your supervisor can take it up.';

const UNTRUSTED =
  'is turned off because this workspace is not trusted: agents may read files but not change them or run commands. Nothing was done. ' +
  'Say in your answer what you would have changed; the user can trust the workspace to allow it.';

/**
 * The child filter and the trust filter, both at once and both twice: a barred tool is taken out
 * of what the model sees, and put back as a stand-in that refuses any forged call without running
 * anything. A profile's `tools` and `disallowedTools` simply leave tools out
 * (`mcp__<server>__*` names every tool of a server).
 */
export function selectRunTools(all: readonly AnyToolSpec[], context: RunToolContext): RunToolSelection {
  const tools: AnyToolSpec[] = [];
  const hidden: string[] = [];
  const removed: { tool: string; reason: string }[] = [];
  for (const spec of all) {
    const barred =
      context.depth >= 1 && spec.capabilities.some((c) => CHILD_BARRED.includes(c))
        ? HAND_BACK
        : !context.trusted && spec.capabilities.some((c) => UNTRUSTED_BARRED.includes(c))
          ? UNTRUSTED
          : undefined;
    if (barred) {
      tools.push(refusing(spec, `${spec.name} ${barred}`));
      hidden.push(spec.name);
      removed.push({
        tool: spec.name,
        reason:
          barred === HAND_BACK
            ? 'the child filter: only the supervisor talks to the user or installs things'
            : 'the workspace is not trusted',
      });
      continue;
    }
    if (context.allow && !listsTool(context.allow, spec.name)) removed.push({ tool: spec.name, reason: "not in the profile's tools" });
    else if (context.deny && listsTool(context.deny, spec.name))
      removed.push({ tool: spec.name, reason: "in the profile's disallowedTools" });
    else tools.push(spec);
  }
  return { tools, hidden, removed };
}

/** Any input at all, so a forged call reaches its stand-in whatever it sends. One schema object: its conversion is cached. */
const ANY_INPUT = z.unknown();

/** A stand-in under the tool's name that refuses every call. */
function refusing(spec: AnyToolSpec, message: string): AnyToolSpec {
  return {
    name: spec.name,
    description: spec.description,
    capabilities: spec.capabilities,
    inputSchema: ANY_INPUT,
    execute: async () => ({ error: message }),
  };
}
