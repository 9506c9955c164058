import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { requireWithCodeCache, type CachedRequire } from '../core/codeCache/requireWithCodeCache';
import { cliCodeCacheDir } from './codeCacheDir';
import type * as CliMain from './main';

// dist/cli.js, the `subagents` command: loads the CLI (dist/cliMain.js) and the lazy bundles its
// command needs through V8's code cache (src/core/codeCache/), so a command after the first skips
// compiling them (about half of the CLI's start). A cache still missing is written as the command
// ends (or, in a long run, after SAVE_AFTER_MS), never on the way to its output.

const SAVE_AFTER_MS = 20_000;

const file = join(__dirname, 'cliMain.js');
const cacheDir = cliCodeCacheDir(process.env, process.platform, homedir());

function warn(message: string): void {
  const text = message.charAt(0).toLowerCase() + message.slice(1);
  process.stderr.write(`subagents: warning: ${text}. The command works without it (it compiles its code again each time); set SUBAGENTS_CODE_CACHE to another folder, or to off.\n`);
}

const cli: Pick<CachedRequire<typeof CliMain>, 'exports' | 'flush'> = cacheDir
  ? requireWithCodeCache<typeof CliMain>(file, { cacheDir, saveAfterMs: SAVE_AFTER_MS, onProblem: warn })
  : { exports: createRequire(file)(file) as typeof CliMain, flush: async () => {} };

void cli.exports.runCli().then(async (code) => {
  await cli.flush();
  // Once stdout has taken everything: a pipe reader must see the last line.
  process.stdout.write('', () => process.exit(code));
});
