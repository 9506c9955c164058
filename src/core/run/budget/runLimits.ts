import type { RunLimit } from '../../../shared/events';
import { DEFAULT_MAX_STEPS, type RequestBudget } from '../../config/settings/engineSettings';
import type { Profile } from '../../config/profiles/profile';
import { tokens } from './tokenBudget';

/** A lower token limit asked for by the delegation call that starts a run. */
export interface CallTokenLimit {
  value: number;
  tool: string;
}

/** The limits a run works under, each with where its value came from. */
export interface RunLimits {
  maxSteps: RunLimit;
  timeoutMs?: RunLimit;
  /** The run's own token limit (its profile's, or its call's lower one), before its parent's share. */
  ownTokens?: RunLimit;
}

const profileField = (profile: Profile, field: string) => `the "${profile.name}" profile's ${field}`;

export const REQUEST_TOKENS_SOURCE = 'subagents.budget.maxTokens, for the whole request';
const REQUEST_TIME_SOURCE = 'subagents.budget.timeoutMs, for the whole request';

/**
 * The limits of one run: its profile's, a lower `maxTokens` from the call that starts it, and for
 * the top run of a request the request's time limit, whichever is tightest.
 */
export function runLimits(profile: Profile, options: { call?: CallTokenLimit; request?: RequestBudget }): RunLimits {
  const maxSteps: RunLimit =
    profile.maxSteps === undefined
      ? { value: DEFAULT_MAX_STEPS, source: `the default (${DEFAULT_MAX_STEPS})` }
      : { value: profile.maxSteps, source: profileField(profile, 'maxSteps') };
  const limits: RunLimits = { maxSteps };
  const times = [
    ...(profile.timeoutMs === undefined ? [] : [{ value: profile.timeoutMs, source: profileField(profile, 'timeoutMs') }]),
    ...(options.request?.timeoutMs === undefined ? [] : [{ value: options.request.timeoutMs, source: REQUEST_TIME_SOURCE }]),
  ];
  const timeout = tightest(times);
  if (timeout) limits.timeoutMs = timeout;
  const own = profile.maxTokens === undefined ? undefined : { value: profile.maxTokens, source: profileField(profile, 'maxTokens') };
  const call = options.call;
  if (call && (!own || call.value < own.value)) {
    const profileSays = own ? `the profile allows ${tokens(own.value)}` : 'the profile sets no limit';
    limits.ownTokens = { value: call.value, source: `the maxTokens of its ${call.tool} call; ${profileSays}` };
  } else if (own) limits.ownTokens = own;
  return limits;
}

/**
 * A call may only lower the profile's token limit: the error its model sees when it asks for
 * more, or undefined when the request is fine.
 */
export function raisedTokenLimit(profile: Profile, asked: number | undefined, tool: string): string | undefined {
  if (asked === undefined || profile.maxTokens === undefined || asked <= profile.maxTokens) return undefined;
  return (
    `maxTokens ${tokens(asked)} is more than the "${profile.name}" profile allows (${tokens(profile.maxTokens)}, set in ${profile.source}); ` +
    `${tool} may only lower it. Ask for ${tokens(profile.maxTokens)} or less, or leave maxTokens out to use the profile's.`
  );
}

/**
 * What a run is given: its own limit, but never more than its parent has left. Without a limit
 * of its own it shares its parent's: the limit then is what the parent had left (for the inspector
 * and the budget bar; the parent's budget itself does the stopping).
 */
export function givenTokens(
  own: RunLimit | undefined,
  above: { left: number; limit: RunLimit | undefined },
  isTop: boolean,
): { limit?: RunLimit; capped: boolean } {
  const parentLeft = above.left;
  if (!Number.isFinite(parentLeft)) return own ? { limit: own, capped: false } : { capped: false };
  const whose = isTop ? 'the request' : 'its parent';
  if (!own) {
    const source =
      isTop && above.limit ? above.limit.source : `shared with ${whose}: what ${isTop ? 'it' : 'the parent'} had left when the run started`;
    return { limit: { value: parentLeft, source }, capped: false };
  }
  if (own.value <= parentLeft) return { limit: own, capped: false };
  return {
    limit: { value: parentLeft, source: `what ${whose} had left when it started; its own limit, ${own.source}, is ${tokens(own.value)}` },
    capped: true,
  };
}

function tightest(limits: readonly RunLimit[]): RunLimit | undefined {
  let best: RunLimit | undefined;
  for (const l of limits) if (!best || l.value < best.value) best = l;
  return best;
}
