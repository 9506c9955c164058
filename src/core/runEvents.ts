import type { UnsequencedRunEvent } from '../shared/events';

/** Distributes Omit so each event kind keeps its own fields. */
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** An event as a run writes it: the run's identity and the time are filled in by the emitter. */
export type RunEventBody = DistributiveOmit<UnsequencedRunEvent, 'v' | 'threadId' | 'runId' | 'ts'>;

/** Emits the events of one run. Events after the run's `run.finished` are dropped. */
export type EmitRunEvent = (body: RunEventBody) => void;
