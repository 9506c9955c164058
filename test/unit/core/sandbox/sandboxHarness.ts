import { nodeWorkspace } from '../../../../src/core/engine/nodeWorkspace';
import type { EngineSettings } from '../../../../src/core/config/settings/engineSettings';
import type { RunEventOf } from '../../../../src/shared/events';
import { makeEngine } from '../engineHarness';

export interface CommandOutput {
  exitCode?: number;
  output: string;
  error?: string;
}

/**
 * Runs `commands` one after another through run_command (one step each) in the real engine over a
 * real workspace at `root`, sandbox on; returns each one's result and the run's events.
 */
export async function runCommands(
  root: string,
  commands: readonly string[],
  options: { settings?: Partial<EngineSettings>; untracked?: string[] } = {},
) {
  const steps = commands.map((command) => ({ toolCalls: [{ tool: 'run_command', input: { command, timeoutMs: 120_000 } }] }));
  const h = makeEngine(
    { agents: { supervisor: [...steps, { text: 'done' }] } },
    {
      workspace: nodeWorkspace({ root }),
      settings: { approval: 'trust', 'sandbox.mode': 'on', ...options.settings },
      ...(options.untracked ? { untracked: options.untracked } : {}),
    },
  );
  const { threadId, done } = await h.engine.send({ prompt: 'go' });
  await done;
  await h.engine.whenQuiet(threadId);
  const outputs = h.events
    .filter((e): e is RunEventOf<'tool.finished'> => e.kind === 'tool.finished' && e.tool === 'run_command')
    .map((e) => e.output as CommandOutput);
  const changed = h.events.filter((e): e is RunEventOf<'file.changed'> => e.kind === 'file.changed');
  return { h, outputs, changed };
}

/** A node one-liner that writes `path` (relative to the command's folder or absolute), spelled so the judge cannot read it: only the sandbox stops it. */
export const nodeWrite = (path: string, content = 'pwned') =>
  `node -e "try { require('fs').writeFileSync(Buffer.from(process.argv[1], 'base64').toString(), process.argv[2]); console.log('WROTE') } catch (e) { console.log(e.code) }" ${Buffer.from(path).toString('base64')} ${content}`;
