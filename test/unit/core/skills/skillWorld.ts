import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Engine } from '../../../../src/core/engine/engine';
import { nodeWorkspace } from '../../../../src/core/engine/nodeWorkspace';
import { DEFAULT_SETTINGS } from '../../../../src/core/config/settings/engineSettings';
import { loadWorkspaceProfiles } from '../../../../src/core/config/profiles/workspaceProfiles';
import { MemoryThreadStore } from '../../../../src/core/storage/threads/memoryThreadStore';
import type { RunEvent } from '../../../../src/shared/events';
import { programmedModel, type ProgramContext, type ProgramStep } from '../programmedModel';

/** A temporary workspace and home, with files written where the test says. */
export function skillWorld() {
  const base = mkdtempSync(join(tmpdir(), 'skills-'));
  const root = join(base, 'ws');
  const home = join(base, 'home');
  mkdirSync(root, { recursive: true });
  mkdirSync(home, { recursive: true });
  const write = (path: string, text: string) => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    return path;
  };
  return { base, root, home, write };
}

export const skillText = (name: string, description: string, body: string, extra = '') =>
  `---\nname: ${name}\ndescription: ${description}\n${extra}---\n${body}\n`;

/** The system prompt of a call. */
export const systemOf = (options: LanguageModelV4CallOptions): string =>
  options.prompt
    .filter((m) => m.role === 'system')
    .map((m) => m.content)
    .join('\n');

/**
 * The real engine over the real profile loader (agent files, skills, prompt files of `root` and
 * `home`), with one programmed model per agent name.
 */
export function skillEngine(root: string, home: string, programs: Record<string, (ctx: ProgramContext) => ProgramStep>) {
  const events: RunEvent[] = [];
  const models = new Map(Object.entries(programs).map(([agent, program]) => [agent, programmedModel(program)]));
  const engine = new Engine({
    store: new MemoryThreadStore(),
    workspace: nodeWorkspace({ root }),
    profiles: () => loadWorkspaceProfiles({ root, home, trusted: true }),
    settings: () => ({ ...DEFAULT_SETTINGS, model: 'openai-compatible:http://127.0.0.1:9/v1#m' }),
    createModelResolver: () => ({
      resolve: (spec, caller) => {
        const model = models.get(caller.agent);
        if (!model) throw new Error(`no model for ${caller.agent} (${spec})`);
        return model;
      },
    }),
  });
  engine.onEvent((e) => events.push(e));
  return { engine, events };
}
