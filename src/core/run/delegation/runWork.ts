import type { RunStatus, Usage, RunLimit } from '../../../shared/events';
import type { WorkSlot } from '../agent/workSlot';
import type { ModelChoiceText } from '../runConfig/describeModelChoice';
import type { LaunchRequest, Launch } from './delegationTypes';
import type { RunEmitter } from './runEmitter';
import type { RunHandle } from './runHandle';
import type { Session } from './session';

// What a run's work takes and gives back: its own file, so both ways of working (runTurns.ts, the model loop;
// run/external/runExternal.ts, an ACP agent) use it without importing each other.

/** How a run's work came out, before its end is written. */
export interface RunEnding {
  status: RunStatus;
  output: string;
  usage: Usage;
  error?: string;
  bailed?: boolean;
}

/** What launchRun worked out before the run's first event: how its model was chosen, and its limits. */
export interface RunSetup {
  model: ModelChoiceText;
  limits: { maxSteps: RunLimit; timeoutMs?: RunLimit; maxTokens?: RunLimit };
}

export interface RunWork {
  session: Session;
  run: RunHandle;
  request: LaunchRequest;
  emitter: RunEmitter;
  setup: RunSetup;
  slot: WorkSlot;
  launch: Launch;
}
