import { basename } from 'node:path';
import { hasLongOption, hasOption, known, optionValues, parseArgs, UNKNOWN_INPUT, type Arg } from './args';
import { DISGUISED_RULES } from './disguisedEffects';
import type { Effects } from './effects';
import { curl, wget } from './downloadEffects';
import { gitEffects } from './gitEffects';
import { sedScriptConcern } from './sedScript';

export type { Effects } from './effects';

type Rule = (args: Arg[]) => Partial<Effects>;

const none: Partial<Effects> = {};

/** Commands that read the files they name and write nothing but their output. */
const READERS = new Set(
  (
    'cat head tail less more grep egrep fgrep rg ag ack wc ls tree stat file du df diff cmp comm cut tr nl paste join ' +
    'fold fmt rev tac column od xxd hexdump strings md5sum sha1sum sha256sum sha512sum base64 basename dirname realpath ' +
    'readlink pwd which type whereis echo printf true false test [ date id whoami uname hostname nproc seq yes sleep ' +
    'printenv ps jq wc lsof free uptime cal expr numfmt'
  ).split(' '),
);

const SHELLS = new Set(['bash', 'sh', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'fish']);

/** Interpreters and the options that give them code inline. */
const INLINE_CODE: Record<string, string[]> = {
  node: ['-e', '--eval', '-p', '--print'],
  nodejs: ['-e', '--eval', '-p', '--print'],
  bun: ['-e', '--eval', '-p', '--print'],
  deno: ['eval'],
  python: ['-c'],
  python2: ['-c'],
  python3: ['-c'],
  pypy: ['-c'],
  pypy3: ['-c'],
  perl: ['-e', '-E'],
  ruby: ['-e'],
  php: ['-r'],
  lua: ['-e'],
  Rscript: ['-e'],
  osascript: ['-e'],
  pwsh: ['-c', '-command', '-Command'],
  powershell: ['-c', '-command', '-Command'],
  tclsh: [],
  expect: ['-c'],
};

/** Wrappers: the options they take a value for, before the command they run. */
const WRAPPERS: Record<string, string[]> = {
  exec: ['-a'],
  command: [],
  builtin: [],
  nohup: [],
  setsid: [],
  nice: ['-n', '--adjustment'],
  ionice: ['-c', '-n', '-p', '--class', '--classdata'],
  stdbuf: ['-i', '-o', '-e', '--input', '--output', '--error'],
  chrt: [],
  sudo: ['-u', '-g', '-h', '-p', '-C', '-D', '-r', '-t', '-U', '--user', '--group', '--chdir'],
  doas: ['-u', '-C'],
};

function writesOperands(valued: string[] = [], skipFirst = false): Rule {
  return (args) => {
    const parsed = parseArgs(args, valued);
    return { writes: skipFirst && !hasOption(parsed, '--reference') ? parsed.operands.slice(1) : parsed.operands };
  };
}

/** cp, mv, install, ln: the destination, and each source's name inside it (it may be a folder). */
function copyLike(valued: string[], links: boolean): Rule {
  return (args) => {
    const parsed = parseArgs(args, ['-t', '--target-directory', '-S', '--suffix', ...valued]);
    if (hasOption(parsed, '-d', '--directory') && !links) return { writes: parsed.operands };
    const target = optionValues(parsed, '-t', '--target-directory')[0];
    const sources = target ? parsed.operands : parsed.operands.slice(0, -1);
    const dest = target ?? parsed.operands[parsed.operands.length - 1];
    if (!dest) return none;
    const writes: Arg[] = [dest];
    for (const source of sources) writes.push(known(source) && known(dest) ? { value: `${dest.value}/${basename(source.value)}` } : dest);
    return { writes, linkSources: links ? sources : [] };
  };
}

function tar(args: Arg[]): Partial<Effects> {
  const first = args[0];
  // `tar xzf a.tgz`: the first word may be options without a dash.
  const normalized =
    known(first) && /^[A-Za-z]+$/.test(first.value) && !first.value.startsWith('-')
      ? [{ value: `-${first.value}` }, ...args.slice(1)]
      : args;
  const parsed = parseArgs(normalized, [
    '-f',
    '--file',
    '-C',
    '--directory',
    '-I',
    '--use-compress-program',
    '-F',
    '--info-script',
    '--to-command',
    '--rsh-command',
    '-T',
    '-X',
  ]);
  if (
    hasOption(parsed, '-I', '-F') ||
    hasLongOption(
      parsed,
      '--use-compress-program',
      '--info-script',
      '--new-volume-script',
      '--to-command',
      '--rsh-command',
      '--checkpoint-action',
    )
  ) {
    return { opaque: 'tar runs a program given in its options' };
  }
  if (hasOption(parsed, '-x', '--extract', '--get'))
    return { opaque: 'tar extracts files named inside the archive, which the judge cannot see' };
  if (hasOption(parsed, '-c', '-r', '-u', '-A', '--create', '--append', '--update', '--concatenate', '--delete'))
    return { writes: optionValues(parsed, '-f', '--file') };
  return { readsOnly: true };
}

function unzip(args: Arg[]): Partial<Effects> {
  const parsed = parseArgs(args, ['-d', '-x']);
  if (hasOption(parsed, '-l', '-p', '-t', '-v', '-Z', '-z')) return { readsOnly: true };
  return { opaque: 'unzip writes files named inside the archive, which the judge cannot see' };
}

function find(args: Arg[]): Partial<Effects> {
  const writes: Arg[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (!known(arg)) continue;
    const action = arg.value;
    if (action === '-delete') return { opaque: 'find -delete removes the files it finds, which the judge cannot list' };
    if (['-fprint', '-fprint0', '-fls', '-fprintf'].includes(action) && args[i + 1]) writes.push(args[i + 1]!);
    if (['-exec', '-execdir', '-ok', '-okdir'].includes(action)) {
      const end = args.findIndex((a, j) => j > i && known(a) && (a.value === ';' || a.value === '+'));
      const inner = args.slice(i + 1, end < 0 ? undefined : end).map((a) => (known(a) && a.value.includes('{}') ? UNKNOWN_INPUT : a));
      return { writes, inner };
    }
  }
  return { writes, readsOnly: writes.length === 0 };
}

function xargs(args: Arg[]): Partial<Effects> {
  const parsed = parseArgs(
    args,
    [
      '-I',
      '-i',
      '-n',
      '-L',
      '-l',
      '-P',
      '-d',
      '-a',
      '-E',
      '-e',
      '-s',
      '--max-args',
      '--max-procs',
      '--delimiter',
      '--arg-file',
      '--replace',
    ],
    true,
  );
  const inner = parsed.rest.length ? parsed.rest : [{ value: 'echo' }];
  // What it appends (or puts in place of -I's string) comes from its input.
  return {
    inner: [
      ...inner.map((a) => (known(a) && hasOption(parsed, '-I', '-i', '--replace') && a.value.includes('{}') ? UNKNOWN_INPUT : a)),
      UNKNOWN_INPUT,
    ],
    launcher: true,
  };
}

function timeout(args: Arg[]): Partial<Effects> {
  const parsed = parseArgs(args, ['-s', '-k', '--signal', '--kill-after'], true);
  return { inner: parsed.rest.slice(1), launcher: true };
}

function shell(args: Arg[]): Partial<Effects> {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (!known(arg) || !arg.value.startsWith('-') || arg.value === '-') break;
    if (/^-[a-zA-Z]*c[a-zA-Z]*$/.test(arg.value)) return { script: args[i + 1] ?? { value: '' }, launcher: true };
  }
  const operand = args.find((a) => !known(a) || !a.value.startsWith('-') || a.value === '-');
  if (!operand || (known(operand) && operand.value === '-'))
    return { opaque: 'the shell runs the code it reads from its input', launcher: true };
  return { launcher: true };
}

function interpreter(flags: string[]): Rule {
  return (args) => {
    const inline = args.find(
      (a) =>
        known(a) &&
        flags.some(
          (f) => a.value === f || a.value.startsWith(`${f}=`) || (/^-[A-Za-z]$/.test(f) && new RegExp(`^-[A-Za-z]*${f[1]}`).test(a.value)),
        ),
    );
    if (inline) return { opaque: `it runs code given inline (${shown(inline)} …), which the judge cannot read`, launcher: true };
    const operand = args.find((a) => !known(a) || !a.value.startsWith('-'));
    if (!operand || (known(operand) && operand.value === '-'))
      return { opaque: 'it runs the code it reads from its input', launcher: true };
    return { launcher: true };
  };
}

function awk(args: Arg[]): Partial<Effects> {
  const parsed = parseArgs(args, [
    '-F',
    '-v',
    '-f',
    '--file',
    '--field-separator',
    '--assign',
    '-E',
    '--exec',
    '-i',
    '--include',
    '-l',
    '--load',
  ]);
  if (hasOption(parsed, '-f', '--file', '-E', '--exec', '-i', '--include'))
    return { opaque: 'awk runs a program from a file', launcher: true };
  // gawk -l loads a shared library: native code.
  if (hasOption(parsed, '-l', '--load')) return { opaque: 'awk loads an extension library', launcher: true };
  const program = parsed.operands[0];
  if (!known(program)) return { opaque: 'awk runs a program known only when it runs', launcher: true };
  // Output redirection, pipes and system() inside the program write files or run commands.
  if (/\bsystem\s*\(|\||\b(print|printf)\b[^;{}]*>|@load|@include/.test(program.value))
    return { opaque: 'its awk program writes files or runs commands', launcher: true };
  return { readsOnly: true };
}

function sed(args: Arg[]): Partial<Effects> {
  const parsed = parseArgs(args, ['-e', '--expression', '-f', '--file', '-l', '--line-length']);
  const inPlace = [...parsed.options.keys()].some((k) => k === '-i' || k === '--in-place' || k.startsWith('--in-place'));
  const scripts = optionValues(parsed, '-e', '--expression');
  const files = scripts.length || hasOption(parsed, '-f', '--file') ? parsed.operands : parsed.operands.slice(1);
  if (!scripts.length && !hasOption(parsed, '-f', '--file') && parsed.operands[0]) scripts.push(parsed.operands[0]);
  if (hasOption(parsed, '-f', '--file')) return { opaque: 'sed runs a script from a file', launcher: true };
  for (const script of scripts) {
    const concern = known(script) ? sedScriptConcern(script.value) : 'its script is known only when it runs';
    if (concern) return { opaque: concern };
  }
  return inPlace ? { writes: files } : { readsOnly: true };
}

function uniq(args: Arg[]): Partial<Effects> {
  const parsed = parseArgs(args, ['-f', '-s', '-w', '--skip-fields', '--skip-chars', '--check-chars']);
  return { writes: parsed.operands.slice(1) };
}

function dd(args: Arg[]): Partial<Effects> {
  return { writes: args.filter((a) => !known(a) || a.value.startsWith('of=')).map((a) => (known(a) ? { value: a.value.slice(3) } : a)) };
}

const RULES: Record<string, Rule> = {
  cp: copyLike([], false),
  mv: copyLike([], false),
  install: copyLike(['-m', '--mode', '-o', '--owner', '-g', '--group'], false),
  ln: copyLike([], true),
  tee: writesOperands(['--output-error']),
  rm: writesOperands(),
  rmdir: writesOperands(),
  unlink: writesOperands(),
  shred: writesOperands(['-n', '-s', '--iterations', '--size']),
  touch: writesOperands(['-r', '-d', '-t', '--reference', '--date']),
  mkdir: writesOperands(['-m', '--mode']),
  truncate: writesOperands(['-s', '-r', '--size', '--reference']),
  chmod: writesOperands([], true),
  chown: writesOperands([], true),
  chgrp: writesOperands([], true),
  rsync: (args) => ({
    writes: parseArgs(args, ['-e', '--rsh', '--rsync-path']).operands.slice(-1),
    opaque: args.some((a) => known(a) && /^(-e|--rsh|--rsync-path)/.test(a.value))
      ? 'rsync runs a program given in its options'
      : undefined,
  }),
  zip: (args) => ({ writes: parseArgs(args, ['-b', '-n', '-t', '-tt']).operands.slice(0, 1) }),
  patch: () => ({ opaque: 'patch changes the files named inside the patch, which the judge cannot see' }),
  dd,
  tar,
  unzip,
  find,
  xargs,
  timeout,
  sed,
  awk,
  gawk: awk,
  mawk: awk,
  nawk: awk,
  curl,
  wget,
  uniq,
  git: gitEffects,
  eval: (args) => ({
    script: args.every(known)
      ? { value: args.map((a) => a.value).join(' ') }
      : { unknown: 'eval …', variable: false, why: 'the code it runs is known only when it runs' },
    launcher: true,
  }),
  source: () => ({ launcher: true }),
  '.': () => ({ launcher: true }),
  watch: (args) => {
    const rest = parseArgs(args, ['-n', '--interval', '-d', '--differences'], true).rest;
    return {
      script: rest.every(known)
        ? { value: rest.map((a) => a.value).join(' ') }
        : { unknown: 'watch …', variable: false, why: 'the code it runs is known only when it runs' },
      launcher: true,
    };
  },
  ...DISGUISED_RULES,
};

/** The effects of `argv` (name first); a command it does not know writes nothing it can name. */
export function commandEffects(argv: readonly Arg[]): Effects {
  const effects: Effects = { writes: [], linkSources: [], readsOnly: false, launcher: false };
  const [name, ...args] = argv;
  // Assignments alone (`x=1`, `for ((i = 0; …))`) run nothing; they are judged as assignments.
  if (name === undefined) return { ...effects, readsOnly: true };
  if (!known(name))
    return { ...effects, opaque: `the command name ${name ? ('unknown' in name ? name.unknown : '') : ''} is known only when it runs` };
  const command = basename(name.value);
  let found: Partial<Effects> | undefined;
  if (RULES[command]) found = RULES[command](args);
  else if (WRAPPERS[command]) found = { inner: parseArgs(args, WRAPPERS[command], true).rest, launcher: true };
  else if (SHELLS.has(command)) found = shell(args);
  else if (INLINE_CODE[command] || /^python3\.\d+$/.test(command)) found = interpreter(INLINE_CODE[command] ?? ['-c'])(args);
  else if (READERS.has(command)) found = { readsOnly: true };
  return { ...effects, ...stripUndefined(found ?? {}) };
}

function shown(arg: Arg): string {
  return known(arg) ? arg.value : arg.unknown;
}

function stripUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
