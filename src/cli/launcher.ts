import { homedir } from 'node:os';
import { join } from 'node:path';
import { requireWithCodeCache } from '../core/platform/codeCache/requireWithCodeCache';
import { cliCodeCacheDir } from './codeCacheDir';
import type * as CliMain from './main';

// dist/cli.js, the `subagents` command: loads the CLI (dist/cliMain.js) and the lazy bundles its
// command needs through V8's code cache (src/core/platform/codeCache/), so a command after the first skips
// compiling them (about half of the CLI's start). A cache still missing is written once the
// command has answered (flush), before the process exits: never on the way to its output.

function warn(message: string): void {
  const text = message.charAt(0).toLowerCase() + message.slice(1);
  process.stderr.write(
    `subagents: warning: ${text}. The command works without it (it compiles its code again each time); set SUBAGENTS_CODE_CACHE to another folder, or to off.\n`,
  );
}

const cli = requireWithCodeCache<typeof CliMain>(join(__dirname, 'cliMain.js'), {
  cacheDir: cliCodeCacheDir(process.env, process.platform, homedir()),
  onProblem: warn,
});

void cli.exports.runCli().then(async (code) => {
  await cli.flush();
  // Once stdout has taken everything: a pipe reader must see the last line.
  process.stdout.write('', () => process.exit(code));
});
