import type { ModelMessage } from 'ai';
import type { EmitRunEvent } from '../../runEvents';
import type { CallTokenLimit } from '../budget/runLimits';
import type { Profile } from '../../config/profiles/profile';
import type { ChildRecord, RunHandle } from './runHandle';
import type { RunResult } from './runResult';
import type { Session } from './session';

// The shapes the delegation modules pass between them, kept apart from the code that makes and
// uses them, so no module needs another's implementation for a type (and none imports in a circle).

/** What starting a run needs: where it works, who started it, and what it is asked. */
export interface LaunchRequest {
  threadId: string;
  rootThreadId: string;
  parent: RunHandle | null;
  parentToolCallId?: string;
  profile: Profile;
  task: string;
  /** The user message the agent sees: the task plus any explicit context. */
  prompt: string;
  /** Earlier turns of this thread (empty for a fresh one). */
  history: ModelMessage[];
  /** A lower token limit asked for by the delegation call (it can only lower the profile's). */
  maxTokens?: CallTokenLimit;
}

/** Starts a run and returns its handle at once. */
export type Launch = (request: LaunchRequest) => RunHandle;

/** What the delegation tools of one run work with. */
export interface DelegationDeps {
  session: Session;
  caller: RunHandle;
  /** The profiles this caller may delegate to. */
  delegates: readonly Profile[];
  emit: EmitRunEvent;
  launch: Launch;
}

/** One child the caller asks for. */
export interface ChildRequest {
  profile: Profile;
  task: string;
  /** The user message the child sees: the task plus the explicit context. */
  prompt: string;
  toolCallId: string;
  continueThreadId?: string;
  background: boolean;
  /** The call's own maxTokens: at most the profile's. */
  maxTokens?: number;
  /** The delegation tool asking, for messages. */
  tool: string;
}

export type StartOutcome =
  | { kind: 'started'; record: ChildRecord }
  /** The same tool call already started this run (a replay): nothing new is started. */
  | { kind: 'existing'; runId: string; threadId: string; record?: ChildRecord; result?: RunResult }
  | { kind: 'busy'; runId: string; threadId: string }
  | { kind: 'refused'; threadId: string; error: string };
