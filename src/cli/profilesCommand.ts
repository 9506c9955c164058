import type { Command } from './cliArgs';
import { EXIT } from './cliError';
import type { CliIo } from './cliIo';
import { describeProfileProblemAndEffect } from '../core/profiles/describeProfileProblem';
import { cliProfiles } from './cliProfiles';
import { oneLine } from '../shared/oneLine';
import { readWorkspaceSettings } from './workspaceSettings';

type ProfilesCommand = Extract<Command, { name: `profiles ${string}` }>;

/** `subagents profiles list|validate`: the merged profiles of the workspace, and their problems. */
export async function profilesCommand(cmd: ProfilesCommand, io: CliIo): Promise<number> {
  const set = cliProfiles(await readWorkspaceSettings(cmd.workspace), cmd.workspace);
  const profiles = [...set.profiles.values()];
  const problems = set.problems.map((p) => describeProfileProblemAndEffect(p, set.profiles));
  if (cmd.json) {
    const body = cmd.name === 'profiles list' ? { profiles, problems: set.problems } : { ok: problems.length === 0, problems: set.problems };
    io.stdout.write(`${JSON.stringify(body)}\n`);
  } else {
    if (cmd.name === 'profiles list') {
      for (const p of profiles) io.stdout.write(`${p.name}  (${p.source})  ${oneLine(p.description, 100)}\n`);
    }
    for (const p of problems) io.stderr.write(`subagents: problem: ${p}\n`);
    if (cmd.name === 'profiles validate' && problems.length === 0) io.stdout.write(`${profiles.length} profiles, no problems.\n`);
  }
  return cmd.name === 'profiles validate' && problems.length > 0 ? EXIT.usage : EXIT.ok;
}
