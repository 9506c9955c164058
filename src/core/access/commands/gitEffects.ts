import { homedir } from 'node:os';
import { join } from 'node:path';
import { hasLongOption, hasOption, known, optionValues, parseArgs, type Arg } from './args';
import type { Effects } from './effects';

/** git's own options before the subcommand, and those that take a value. */
const GLOBAL_VALUED = [
  '-C',
  '-c',
  '--git-dir',
  '--work-tree',
  '--namespace',
  '--config-env',
  '--exec-path',
  '--super-prefix',
  '--list-cmds',
  '--attr-source',
];

/** Options of a subcommand that make git run a program the user did not name, or plant one. */
const RUNS_PROGRAM: Record<string, string[]> = {
  clone: ['--upload-pack', '-u', '--template', '-c', '--config'],
  fetch: ['--upload-pack'],
  pull: ['--upload-pack'],
  'ls-remote': ['--upload-pack', '-u'],
  push: ['--receive-pack', '--exec'],
  archive: ['--exec', '--remote'],
  init: ['--template'],
  rebase: ['-x', '--exec'],
  diff: ['--ext-diff'],
  log: ['--ext-diff'],
  show: ['--ext-diff'],
  // `git grep -O` opens the files it found in a pager, which may be any program.
  grep: ['-O', '--open-files-in-pager'],
};

/** Subcommands that change the files they name in the working tree. */
const WRITES_PATHS = new Set(['checkout', 'restore', 'rm', 'mv', 'reset', 'clean', 'stash', 'switch']);

/** Subcommands that apply a patch or run commands, whose effects the judge cannot read. */
const OPAQUE: Record<string, string> = {
  apply: 'git apply changes the files named inside the patch, which the judge cannot see',
  am: 'git am changes the files named inside the patches, which the judge cannot see',
  'filter-branch': 'git filter-branch runs commands given in its options',
  'filter-repo': 'git filter-repo runs code given in its options',
  submodule: 'git submodule can run commands from .gitmodules',
};

/**
 * What a git command writes outside git's own data: a clone's or a worktree's folder, an output
 * file, the config it sets; and what makes it a launcher (`-c`, `--upload-pack`, `rebase --exec`).
 */
export function gitEffects(args: Arg[]): Partial<Effects> {
  const global = parseArgs(args, GLOBAL_VALUED, true);
  if (hasOption(global, '-c', '--config-env', '--exec-path'))
    return { opaque: 'git is given configuration or a program on its command line, which can run code' };
  const directory = optionValues(global, '-C')[0];
  if (directory) return { opaque: 'git -C works in another folder; run it from there with cd' };
  const [sub, ...rest] = global.rest;
  if (!known(sub)) return sub ? { opaque: 'the git subcommand is known only when it runs' } : { readsOnly: true };
  const name = sub.value;
  if (OPAQUE[name]) return { opaque: OPAQUE[name] };
  const parsed = parseArgs(rest, [
    '-o',
    '--output',
    '--output-directory',
    '-b',
    '-B',
    '--branch',
    '--depth',
    '--reference',
    '--origin',
    '-m',
    '--message',
    '-F',
    '--file',
    '--format',
    '--prefix',
    '--remote',
    '--exec',
    '--upload-pack',
    '--receive-pack',
    '--template',
    '--separate-git-dir',
    '--config',
    '-c',
    '--strategy',
  ]);
  // Every option word is looked at on its own: the valued list above is for all subcommands, and a
  // flag of this one that takes a value elsewhere (`git log -c`, `git grep -o`, `-F`) would swallow
  // the next word (`git grep -o -O./evil.sh`), hiding the program.
  if (hasLongOption(parseArgs(rest, []), ...(RUNS_PROGRAM[name] ?? [])))
    return { opaque: `git ${name} is given a program to run in its options` };
  const out = optionValues(parsed, '-o', '--output', '--output-directory', '--separate-git-dir');
  const gitDirs = [...optionValues(global, '--git-dir'), ...optionValues(global, '--work-tree')];
  const writes = [...out, ...gitDirs];
  switch (name) {
    case 'clone': {
      const [source, dir] = parsed.operands;
      if (dir) writes.push(dir);
      else if (known(source))
        writes.push({
          value:
            source.value
              .replace(/\/+$/, '')
              .replace(/\.git$/, '')
              .split(/[/:]/)
              .pop() ?? '',
        });
      else if (source) writes.push(source);
      break;
    }
    case 'init':
      // The folder it makes a repository of (its .git is git's own, like any repository's).
      writes.push(parsed.operands[0] ?? { value: '.' });
      break;
    case 'worktree':
      if (known(parsed.operands[0]) && parsed.operands[0].value === 'add' && parsed.operands[1]) writes.push(parsed.operands[1]);
      break;
    case 'bundle':
      if (known(parsed.operands[0]) && parsed.operands[0].value === 'create' && parsed.operands[1]) writes.push(parsed.operands[1]);
      break;
    case 'config':
      if (
        !hasOption(parsed, '--get', '--get-all', '--get-regexp', '-l', '--list', '--show-origin', '--get-urlmatch') &&
        !(known(parsed.operands[0]) && ['get', 'list'].includes(parsed.operands[0].value))
      ) {
        if (hasOption(parsed, '--global')) writes.push({ value: join(homedir(), '.gitconfig') });
        else if (hasOption(parsed, '--system')) writes.push({ value: '/etc/gitconfig' });
        else
          writes.push(...(optionValues(parsed, '-f', '--file').length ? optionValues(parsed, '-f', '--file') : [{ value: '.git/config' }]));
      }
      break;
    case 'bisect':
      if (known(parsed.operands[0]) && parsed.operands[0].value === 'run') return { opaque: 'git bisect run runs a command' };
      break;
    default:
      if (WRITES_PATHS.has(name)) writes.push(...parsed.operands);
  }
  // A subcommand that writes the paths it names is judged on every word it was given, too.
  return { writes, readsOnly: writes.length === 0 && !WRITES_PATHS.has(name) };
}
