import { hasLongOption, hasOption, known, parseArgs, type Arg } from './args';
import { RIPGREP_VALUED_OPTIONS } from './ripgrepOptions';

/**
 * Reads of files the command line does not name, which the path check (every word that is a path
 * must be in the workspace) cannot see: a walk told to follow symbolic links goes wherever a link
 * of the workspace leads (a cloned repository may hold `docs/ref -> /`, and `grep -R KEY .` then
 * prints every key under /home), and `--files0-from` reads the names of the files to open from a
 * file the workspace holds (`sort --files0-from=list` prints ~/.aws/credentials). Reading a
 * named link is fine: the judge resolves named paths. Options are read whole and in clusters
 * (`-Rn`); a value-taking option listed per command keeps its value from being read as flags.
 */
interface Reader {
  valued: readonly string[];
  follows?: { short?: string[]; long?: string[]; onlyWith?: { short: string[]; long: string[] } };
  namesFrom?: string[];
}

const GREP: Reader = {
  valued: ['-e', '--regexp', '-f', '--file', '-m', '--max-count', '-A', '-B', '-C', '-d', '-D', '--label', '--include', '--exclude'],
  follows: { short: ['-R'], long: ['--dereference-recursive'] },
};

const READERS: Readonly<Record<string, Reader>> = {
  grep: GREP,
  egrep: GREP,
  fgrep: GREP,
  rg: {
    valued: RIPGREP_VALUED_OPTIONS,
    follows: { short: ['-L'], long: ['--follow'] },
  },
  du: {
    valued: ['-B', '--block-size', '-d', '--max-depth', '-t', '--threshold', '--time-style', '-X', '--exclude-from', '--exclude'],
    follows: { short: ['-L'], long: ['--dereference'] },
    namesFrom: ['--files0-from'],
  },
  tree: { valued: ['-o', '-L', '-P', '-I', '-H', '-T', '--charset', '--filelimit', '--timefmt', '--sort'], follows: { short: ['-l'] } },
  ls: {
    valued: ['-I', '--ignore', '-w', '--width', '-T', '--tabsize', '--block-size', '--time-style', '--format', '--sort', '--color'],
    follows: { short: ['-L'], long: ['--dereference'], onlyWith: { short: ['-R'], long: ['--recursive'] } },
  },
  wc: { valued: [], namesFrom: ['--files0-from'] },
  sort: {
    valued: ['-o', '--output', '-k', '--key', '-t', '--field-separator', '-S', '--buffer-size', '-T', '--temporary-directory'],
    namesFrom: ['--files0-from'],
  },
  file: { valued: ['-m', '--magic-file', '-e', '--exclude', '-F', '--separator', '-P', '--parameter'], namesFrom: ['-f', '--files-from'] },
  // `-c list`: a checksum list names the files to read (`… /home/u/.ssh/id_rsa`), and each gets OK or FAILED.
  ...Object.fromEntries(
    ['md5sum', 'sha1sum', 'sha256sum', 'sha512sum'].map((name) => [name, { valued: [], namesFrom: ['-c', '--check'] } satisfies Reader]),
  ),
  // `jq -L dir` loads modules and JSON data (`import "x" as $x`) from dir; its value is no path the judge sees.
  jq: { valued: ['-f', '--from-file', '--indent'], namesFrom: ['-L', '--library-path'] },
};

/** Why the command reads files its line does not name, or undefined. */
export function unnamedReads(argv: readonly Arg[]): string | undefined {
  const [name, ...args] = argv;
  if (!known(name)) return undefined;
  if (name.value === 'find') return findFollows(args);
  if (name.value === 'diff') return diffFollows(args);
  const reader = READERS[name.value];
  if (!reader) return undefined;
  const parsed = parseArgs(args, reader.valued);
  const f = reader.follows;
  if (
    f &&
    (hasOption(parsed, ...(f.short ?? [])) || (f.long?.length && hasLongOption(parsed, ...f.long))) &&
    (!f.onlyWith || hasOption(parsed, ...f.onlyWith.short) || hasLongOption(parsed, ...f.onlyWith.long))
  )
    return `${name.value} follows symbolic links in the folders it walks, which may lead outside the workspace`;
  const from = reader.namesFrom ?? [];
  if (from.some((o) => (o.startsWith('--') ? hasLongOption(parsed, o) : hasOption(parsed, o))))
    return name.value === 'jq'
      ? 'jq -L loads modules and data from the folder it is given, which may be outside the workspace'
      : `${name.value} reads the names of the files it opens from a file, so which files it reads is known only when it runs`;
  return undefined;
}

/** `find -L` and `-follow` walk through links; `-H` follows only the named starting points, which are judged. */
function findFollows(args: readonly Arg[]): string | undefined {
  if (args.some((a) => known(a) && (a.value === '-L' || a.value === '-follow')))
    return 'find follows symbolic links in the folders it walks, which may lead outside the workspace';
  return undefined;
}

/** GNU diff follows links while it compares folders (`-r`), unless told `--no-dereference`. */
function diffFollows(args: readonly Arg[]): string | undefined {
  const parsed = parseArgs(args, ['-C', '-U', '-F', '-I', '-x', '-X', '-S', '-W', '--from-file', '--to-file', '--label', '--color']);
  if (hasOption(parsed, '-r') || hasLongOption(parsed, '--recursive'))
    return hasLongOption(parsed, '--no-dereference')
      ? undefined
      : 'diff -r follows symbolic links in the folders it compares, which may lead outside the workspace (add --no-dereference)';
  return undefined;
}
