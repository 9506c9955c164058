import type { LanguageModelV4 } from '@ai-sdk/provider';
import { Engine } from '../../../src/core/engine/engine';
import { DEFAULT_SETTINGS, type EngineSettings } from '../../../src/core/config/settings/engineSettings';
import { nodeWorkspace } from '../../../src/core/engine/nodeWorkspace';
import { createModelResolver } from '../../../src/core/models/createModelResolver';
import type { Approver, Clock, Schedule, Workspace } from '../../../src/core/ports';
import type { ModelCaller, ModelResolver } from '../../../src/core/models/modelResolver';
import type { Script } from '../../../src/core/models/scriptSchema';
import type { Profile, ProfileInput, ProfileProblem, ProjectInstruction } from '../../../src/core/config/profiles/profile';
import type { RunToolSource } from '../../../src/core/tools/runToolSource';
import type { RunEvent } from '../../../src/shared/events';
import { EMPTY_TREE, foldRunEvents } from '../../../src/shared/runTree';
import { walkRuns } from '../../../src/shared/runTotals';
import { MemoryThreadStore } from '../../../src/core/storage/threads/memoryThreadStore';
import type { ThreadStore } from '../../../src/core/storage/threads/threadStore';
import type { SnapshotStore } from '../../../src/core/changes/attribution/snapshotStore';
import type { Worktrees } from '../../../src/core/changes/worktrees/worktrees';
import type { HooksToRun } from '../../../src/core/access/hooks/hookConsent';
import type { Redactor } from '../../../src/core/access/secrets/redactor';
import type { AcpConsent } from '../../../src/core/config/acp/acpConsentKey';

export const SCRIPT_PATH = '/scripts/test-script.json';

export interface HarnessOptions<S extends ThreadStore = MemoryThreadStore> {
  agents?: Record<string, ProfileInput>;
  settings?: Partial<EngineSettings>;
  /** Chooses the model per run, e.g. to capture prompts; undefined falls back to the script. */
  model?: (caller: ModelCaller) => LanguageModelV4 | undefined;
  /** The workspace the agents' tools work in (default: a node workspace at /workspace, never touched). */
  workspace?: Workspace;
  approver?: Approver;
  /** Profiles that failed validation, as the profile loader reports them. */
  problems?: ProfileProblem[];
  /** Replaces the scripted resolver (e.g. one that fails, as a broken script does). */
  createModelResolver?: () => Promise<ModelResolver>;
  /** The store the engine writes to (default: a fresh in-memory store; a JSONL store on disk for a reload). */
  store?: S;
  /** AGENTS.md and the like, as the profile loader would have read them. */
  projectInstructions?: ProjectInstruction[];
  /** Tools from outside the engine (an MCP hub, the editor's tools). */
  toolSources?: RunToolSource[];
  /** The runs' timers (default: real ones), and the clock they are read with. */
  schedule?: Schedule;
  clock?: Clock;
  /** Where worktree runs get their worktrees (none by default: such a profile is refused). */
  worktrees?: Worktrees;
  /** Where the snapshots behind reverts and diffs go (default: in memory). */
  snapshots?: SnapshotStore;
  /** The thread storage folder(s): never a command's change, read-only to sandboxed commands. */
  untracked?: string[];
  /** The hooks each request runs (the engine's `hooks` option). */
  hooks?: () => HooksToRun;
  /** The secrets kept out of events, threads and traces (default: this process's environment). */
  redactor?: Redactor;
  /** How workspace-declared ACP agents get consent (the engine's `acpConsent` option). */
  acpConsent?: AcpConsent;
}

/** An engine over the scripted model and an in-memory store, recording every event it emits. */
export function makeEngine<S extends ThreadStore = MemoryThreadStore>(script: Script, options: HarnessOptions<S> = {}) {
  const store: S | MemoryThreadStore = options.store ?? new MemoryThreadStore();
  const profiles = new Map<string, Profile>(
    Object.entries(options.agents ?? {}).map(([name, p]) => [
      name,
      { ...p, name, instructions: p.instructions ?? '', source: 'test', model: typeof p.model === 'string' ? p.model : undefined },
    ]),
  );
  const settings: EngineSettings = { ...DEFAULT_SETTINGS, model: `scripted:${SCRIPT_PATH}`, ...options.settings };
  const events: RunEvent[] = [];
  const customModel = options.model;
  const engine = new Engine({
    store,
    workspace: options.workspace ?? nodeWorkspace({ root: '/workspace' }),
    ...(options.approver ? { approver: options.approver } : {}),
    ...(options.toolSources ? { toolSources: options.toolSources } : {}),
    ...(options.schedule ? { schedule: options.schedule } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.worktrees ? { worktrees: options.worktrees } : {}),
    ...(options.snapshots ? { snapshots: options.snapshots } : {}),
    ...(options.untracked ? { untracked: options.untracked } : {}),
    ...(options.hooks ? { hooks: options.hooks } : {}),
    ...(options.redactor ? { redactor: options.redactor } : {}),
    ...(options.acpConsent ? { acpConsent: options.acpConsent } : {}),
    profiles: () => ({
      profiles,
      problems: options.problems ?? [],
      ...(options.projectInstructions ? { projectInstructions: options.projectInstructions } : {}),
    }),
    settings: () => settings,
    createModelResolver:
      options.createModelResolver ??
      (async (): Promise<ModelResolver> => {
        const scripted = await createModelResolver({
          workspaceRoot: '/',
          apiKey: () => undefined,
          scripts: new Map([[SCRIPT_PATH, script]]),
        });
        return { resolve: (spec, caller) => customModel?.(caller) ?? scripted.resolve(spec, caller) };
      }),
  });
  engine.onEvent((e) => events.push(e));
  const tree = () => foldRunEvents(EMPTY_TREE, events);
  const runs = () => walkRuns(tree());
  return { engine, store, events, tree, runs, profiles };
}

export const agent = (description: string, extra: Partial<ProfileInput> = {}): ProfileInput => ({ description, ...extra });
