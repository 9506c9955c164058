import { hasLongOption, hasOption, known, optionValues, parseArgs, type Arg } from './args';
import { RIPGREP_VALUED_OPTIONS } from './ripgrepOptions';
import type { Effects } from './effects';

/**
 * Writers and runners in disguise: options and wrappers that turn a command that reads (or a
 * wrapper that only runs another) into one that writes a file, runs a program, or changes the
 * environment of what it runs. Each rule reads the command's words and says what it really does.
 */

type Rule = (args: Arg[]) => Partial<Effects>;

/** `time -o f cmd`, `/usr/bin/time --output=f cmd`: the report goes to a file. */
function time(args: Arg[]): Partial<Effects> {
  const parsed = parseArgs(args, ['-f', '-o', '--format', '--output'], true);
  return { writes: optionValues(parsed, '-o', '--output'), inner: parsed.rest, launcher: true };
}

/**
 * `env X=1 cmd`, `env -u NAME cmd`, `env -i cmd`: the command runs with another environment, which
 * is judged like an assignment before a command; `env -S '…'` splits its string into a command line.
 */
function env(args: Arg[]): Partial<Effects> {
  const parsed = parseArgs(
    args,
    ['-u', '--unset', '-C', '--chdir', '-S', '--split-string', '-a', '--argv0', '--default-signal', '--ignore-signal', '--block-signal'],
    true,
  );
  const sets = optionValues(parsed, '-u', '--unset').map((a) => (known(a) ? a.value : '?'));
  if (hasOption(parsed, '-i', '-') || hasLongOption(parsed, '--ignore-environment')) sets.push('*');
  const split = optionValues(parsed, '-S', '--split-string')[0];
  if (split) return { script: split, launcher: true, sets };
  if (hasOption(parsed, '-C') || hasLongOption(parsed, '--chdir'))
    return { opaque: 'env -C runs its command in another folder', launcher: true };
  const rest = [...parsed.rest];
  for (let first = rest[0]; known(first) && /^[A-Za-z_][A-Za-z0-9_]*=/.test(first.value); first = rest[0]) {
    sets.push(first.value.split('=')[0]!);
    rest.shift();
  }
  return rest.length ? { inner: rest, launcher: true, sets } : { readsOnly: sets.length === 0, launcher: true, sets };
}

/** ripgrep runs `--pre`'s program on every file it searches, and `--hostname-bin`'s for its links. */
function rg(args: Arg[]): Partial<Effects> {
  const parsed = parseArgs(args, RIPGREP_VALUED_OPTIONS);
  if (hasOption(parsed, '--pre', '--hostname-bin')) return { opaque: 'rg runs the program given to --pre or --hostname-bin' };
  return { readsOnly: true };
}

/** sort writes `-o`'s file and its temporary files into `-T`'s folder, and runs `--compress-program` on them. */
function sort(args: Arg[]): Partial<Effects> {
  const parsed = parseArgs(args, [
    '-o',
    '--output',
    '--compress-program',
    '-k',
    '--key',
    '-t',
    '--field-separator',
    '-S',
    '--buffer-size',
    '-T',
    '--temporary-directory',
    '--files0-from',
    '--batch-size',
    '--parallel',
    '--random-source',
    '--sort',
  ]);
  if (hasLongOption(parsed, '--compress-program')) return { opaque: 'sort runs the program given to --compress-program' };
  const out = optionValues(parsed, '-o', '--output');
  // Its temporary files go into -T's folder: a write there, judged as one (outside, or .git, asks).
  const temp = optionValues(parsed, '-T', '--temporary-directory');
  return { writes: [...out, ...temp], readsOnly: out.length === 0 };
}

/** `tree -o f` writes its listing to f; `tree -R` writes a 00Tree.html into every folder. */
function tree(args: Arg[]): Partial<Effects> {
  const parsed = parseArgs(args, [
    '-o',
    '-L',
    '-P',
    '-I',
    '-H',
    '-T',
    '--charset',
    '--filelimit',
    '--timefmt',
    '--sort',
    '--fromfile',
    '--infofile',
    '--gitfile',
  ]);
  if (hasOption(parsed, '-R')) return { opaque: 'tree -R writes a listing file into every folder it lists' };
  const out = optionValues(parsed, '-o');
  return { writes: out, readsOnly: out.length === 0 };
}

/** xxd writes its second file operand, in either direction (`xxd -r dump bin`, `xxd bin dump`). */
function xxd(args: Arg[]): Partial<Effects> {
  const parsed = parseArgs(args, ['-c', '-g', '-l', '-o', '-s', '-n', '-cols', '-groupsize', '-len', '-seek', '-name']);
  const out = parsed.operands.slice(1, 2).filter((a) => !(known(a) && a.value === '-'));
  return { writes: out, readsOnly: out.length === 0 };
}

/** `date -s` sets the system clock. */
function date(args: Arg[]): Partial<Effects> {
  const parsed = parseArgs(args, ['-d', '--date', '-f', '--file', '-r', '--reference', '-s', '--set', '-I', '--iso-8601', '--rfc-3339']);
  if (hasOption(parsed, '-s') || hasLongOption(parsed, '--set')) return { opaque: 'date -s sets the system clock' };
  return { readsOnly: true };
}

/** `file -C -m x` compiles a magic file and writes x.mgc. */
function file(args: Arg[]): Partial<Effects> {
  const parsed = parseArgs(args, ['-m', '--magic-file', '-e', '--exclude', '-F', '--separator', '-f', '--files-from', '-P', '--parameter']);
  if (hasOption(parsed, '-C') || hasLongOption(parsed, '--compile')) return { opaque: 'file -C writes a compiled magic file' };
  return { readsOnly: true };
}

/** `command -v name` only says what name is; `command name …` runs it, judged in its place. */
function command(args: Arg[]): Partial<Effects> {
  const parsed = parseArgs(args, [], true);
  if (hasOption(parsed, '-v', '-V')) return { readsOnly: true };
  return { inner: parsed.rest, launcher: true };
}

/** man runs `-P`'s pager and `-H`'s browser, any program. */
function man(args: Arg[]): Partial<Effects> {
  const parsed = parseArgs(args, [
    '-P',
    '--pager',
    '-H',
    '--html',
    '-M',
    '--manpath',
    '-C',
    '--config-file',
    '-p',
    '--preprocessor',
    '-L',
    '--locale',
    '-m',
    '--systems',
    '-S',
    '-s',
    '--sections',
    '-e',
    '--extension',
    '-R',
    '--recode',
    '-E',
    '--encoding',
    '-T',
    '--troff-device',
  ]);
  if (hasOption(parsed, '-P', '-H') || hasLongOption(parsed, '--pager', '--html'))
    return { opaque: 'man runs the pager or browser given in its options' };
  if (hasOption(parsed, '-C') || hasLongOption(parsed, '--config-file'))
    return { opaque: 'man reads a config file that names the programs it runs' };
  return { readsOnly: true };
}

/**
 * bash evaluates an indexed array's subscript as arithmetic, and arithmetic expands `$(…)`: a name
 * such as `a[$(cmd)]` given to printf -v, test -v, read, declare and the like runs cmd although
 * no text check sees a command there. A name known only when it runs may be such a one.
 */
export function subscriptCode(name: Arg | undefined): string | undefined {
  if (!name) return undefined;
  if (!known(name))
    return `it is given a variable name known only when it runs (${name.unknown}), and bash evaluates an array subscript in a name, which can run commands`;
  if (/\[/.test(name.value) && /[$`]/.test(name.value))
    return `bash evaluates the array subscript in ${name.value}, which can run commands`;
  return undefined;
}

function namesEach(all: (args: Arg[]) => Arg[]): Rule {
  return (args) => {
    for (const name of all(args)) {
      const why = subscriptCode(name);
      if (why) return { opaque: why };
    }
    return { readsOnly: true };
  };
}

/** The words after each `-v` (`test -v NAME`, `printf -v NAME`). */
function afterV(args: Arg[]): Arg[] {
  return args.flatMap((a, i) =>
    known(a) && a.value === '-v' && args[i + 1] ? [args[i + 1]!] : known(a) && /^-v./.test(a.value) ? [{ value: a.value.slice(2) }] : [],
  );
}

/** `declare -i x`: every value later assigned to x is evaluated as arithmetic (`x=$(cat f)` runs f's subscripts). */
function declaration(args: Arg[]): Partial<Effects> {
  if (args.some((a) => known(a) && /^[-+][a-zA-Z]*i/.test(a.value)))
    return { opaque: 'it declares integer variables, whose every assigned value bash evaluates as arithmetic, which can run commands' };
  return namesEach((all) => all)(args);
}

/** Builtins that take variable names, or arithmetic (`let`), as their words. */
const NAME_TAKERS: Record<string, Rule> = {
  printf: namesEach(afterV),
  test: namesEach(afterV),
  '[': namesEach(afterV),
  read: namesEach((args) => args.filter((a) => !known(a) || !a.value.startsWith('-'))),
  mapfile: namesEach((args) => args.filter((a) => !known(a) || !a.value.startsWith('-'))),
  readarray: namesEach((args) => args.filter((a) => !known(a) || !a.value.startsWith('-'))),
  wait: namesEach(afterV),
  getopts: namesEach((args) => args.slice(1, 2)),
  declare: declaration,
  typeset: declaration,
  local: declaration,
  export: declaration,
  readonly: declaration,
  unset: namesEach((args) => args),
  let: (args) =>
    args.some((a) => !known(a) || /[$`]/.test(a.value))
      ? { opaque: 'let evaluates arithmetic that holds an expansion, which can run commands' }
      : {},
};

export const DISGUISED_RULES: Record<string, Rule> = { time, env, command, rg, sort, tree, xxd, date, file, man, ...NAME_TAKERS };
