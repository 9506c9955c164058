import type { Command } from './cliArgs';
import { EXIT } from './cliError';
import type { CliIo } from './cliIo';
import { describeProfileProblemAndEffect, toConfigProblem } from '../core/config/profiles/describeProfileProblem';
import type { Profile, ProfileProblem } from '../core/config/profiles/profile';
import { cliMcpDeclarations } from './cliMcp';
import { cliProfiles } from './cliProfiles';
import { oneLine } from '../shared/oneLine';
import { jsonForTerminal, terminalSafe } from './terminalText';
import { withTakenKeys } from '../core/access/secrets/processKeys';
import { readWorkspaceSettings } from './workspaceSettings';

type ProfilesCommand = Extract<Command, { name: `profiles ${string}` }>;

const LABEL = { error: 'error', warning: 'warning', information: 'note' } as const;

/** A problem for --json: the shared ConfigProblem shape, with the agent and field it is about. */
const jsonProblem = (p: ProfileProblem) => ({ ...toConfigProblem(p), agent: p.name, field: p.field, source: p.source });

/** A profile for --json: what it is, without the bookkeeping of where each field was written. */
const jsonProfile = ({ origin: _origin, ...profile }: Profile) => profile;

function count(problems: readonly ProfileProblem[]): string {
  const n = (s: ProfileProblem['severity']) => problems.filter((p) => p.severity === s).length;
  const part = (k: number, word: string) => `${k} ${word}${k === 1 ? '' : 's'}`;
  return `${part(n('error'), 'error')}, ${part(n('warning'), 'warning')}, ${part(n('information'), 'note')}`;
}

/**
 * `subagents profiles list|validate`: the merged profiles of the workspace, and every problem and
 * note (what an imported file says that is not honoured here). Only errors make validate fail.
 */
export async function profilesCommand(cmd: ProfilesCommand, io: CliIo): Promise<number> {
  const config = await readWorkspaceSettings(cmd.workspace);
  const servers = cliMcpDeclarations(config, cmd.workspace).servers.map((s) => s.name);
  const set = cliProfiles(config, cmd.workspace, withTakenKeys(), servers);
  const profiles = [...set.profiles.values()];
  const errors = set.problems.filter((p) => p.severity === 'error');
  const instructions = (set.projectInstructions ?? []).map((i) => ({ name: i.name, path: i.path }));
  if (cmd.json) {
    const problems = set.problems.map(jsonProblem);
    const body =
      cmd.name === 'profiles list'
        ? { profiles: profiles.map(jsonProfile), problems, projectInstructions: instructions }
        : { ok: errors.length === 0, problems };
    io.stdout.write(`${jsonForTerminal(body)}\n`);
  } else {
    // Names, descriptions and problems quote what agent files say: without terminal control sequences (terminalText.ts).
    const out = (text: string) => io.stdout.write(terminalSafe(text));
    if (cmd.name === 'profiles list') {
      for (const p of profiles) {
        const shown = p.displayName ? ` "${p.displayName}"` : '';
        out(`${p.name}${shown}  (${p.source})  ${oneLine(p.description, 100)}\n`);
      }
      if (instructions.length) out(`Project instructions in every agent's prompt: ${instructions.map((i) => i.name).join(', ')}\n`);
    }
    for (const p of set.problems)
      io.stderr.write(terminalSafe(`subagents: ${LABEL[p.severity]}: ${describeProfileProblemAndEffect(p, set.profiles)}\n`));
    if (cmd.name === 'profiles validate') {
      io.stdout.write(
        set.problems.length === 0
          ? `${profiles.length} profiles, no problems.\n`
          : `${profiles.length} profiles; ${count(set.problems)}.\n`,
      );
    }
  }
  return cmd.name === 'profiles validate' && errors.length > 0 ? EXIT.usage : EXIT.ok;
}
