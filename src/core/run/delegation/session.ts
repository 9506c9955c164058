import type { AcpConsent } from '../../config/acp/acpConsentKey';
import type { RunEvent } from '../../../shared/events';
import type { FileChanges } from '../../changes/attribution/fileChanges';
import type { Worktrees } from '../../changes/worktrees/worktrees';
import type { EngineSettings } from '../../config/settings/engineSettings';
import type { RunToolSource } from '../../tools/runToolSource';
import type { ModelResolver } from '../../models/modelResolver';
import type { Approver, Clock, Logger, Schedule, Workspace } from '../../ports';
import type { ProfileSet } from '../../config/profiles/profile';
import type { Redactor } from '../../access/secrets/redactor';
import type { ThreadStore } from '../../storage/threads/threadStore';
import type { RunRegistry } from './runRegistry';
import type { WorkLimiter } from './workLimiter';
import type { SessionHooks } from '../../access/hooks/hookRunner';
import type { RunTracing } from '../telemetry/runTracing';
import type { AcpSessions } from '../external/acpSessions';

/**
 * Everything one user request (and all the runs it sets off) works with. Settings, profiles and
 * the model resolver are read once when the request starts, so a change applies to the next one;
 * the store, the registry and the limiter are the engine's, shared by all its requests.
 */
export interface Session {
  store: ThreadStore;
  registry: RunRegistry;
  /** The engine's one limiter of subagents working at once (subagents.maxConcurrency). */
  limiter: WorkLimiter;
  resolver: ModelResolver;
  settings: EngineSettings;
  profiles: ProfileSet;
  clock: Clock;
  /** Timers of the runs (timeouts, the stall watch, the model's idle timeout); injected in tests. */
  schedule: Schedule;
  logger: Logger;
  /** Where the agents work, and who approves what they do there. */
  workspace: Workspace;
  approver: Approver | undefined;
  /** Replaces known secrets in everything the runs emit and in tool results (src/core/access/secrets/). */
  redactor: Redactor;
  /** Tools from outside the engine (the window's MCP servers, the editor's tools), shared by its runs. */
  toolSources?: readonly RunToolSource[] | undefined;
  /** Who changed which file, the snapshots, the conflict guard's journal (src/core/changes/attribution/). */
  changes: FileChanges;
  /** The engine's folders sandboxed commands may not write (the thread storage, the worktrees root). */
  readOnlyToCommands?: readonly string[];
  /** Where worktree runs (isolation: worktree) get their worktrees; absent: such a profile is refused. */
  worktrees?: Worktrees;
  /** Set for the runs confined to a worktree: its root and what their commands may write besides. */
  isolation?: { root: string; writable: readonly string[]; readyAt: number };
  /** Where `settings.model` came from, in words (run.config's model.via); default: the user's settings. */
  modelOrigin?: string;
  /** The hooks this request runs (the user's, and the repository's when the user agreed), and the notices about the rest. */
  hooks?: SessionHooks;
  /** Where the runs are traced, when subagents.telemetry.otlpEndpoint is set (src/core/run/telemetry/). */
  tracing?: RunTracing;
  /** How workspace-declared ACP agents get the user's consent (the CLI's --allow-acp, the extension's remembered answers): run/external/acpConsent.ts. */
  acpConsent?: AcpConsent;
  /** The engine's external agents kept for their child threads' next runs (run/external/acpSessions.ts); absent: one process per run. */
  acpSessions?: AcpSessions;
  /** Hands a stamped event to the engine's listeners. */
  publish(event: RunEvent): void;
}
