import { known, optionValues, parseArgs, type Arg } from './args';
import { RIPGREP_VALUED_OPTIONS } from './ripgrepOptions';

/**
 * Files a command reads because an option names them, not as an operand: `grep -f PATTERNS`,
 * `grep --exclude-from=LIST`, `rg --ignore-file PATH`. Such a value is not where the judge looks
 * for a path (it may be taken for the search pattern, or be glued to its option as in
 * `-f/etc/passwd`), yet the command opens it, and what it holds shapes the output. Each is judged
 * as a read of that path: a secret asks in every mode, a path outside the workspace asks unless
 * trusted, like `cat PATH`.
 */
interface OptionReader {
  /** Every option of the command that takes a value, so that a value is never read as flags. */
  valued: readonly string[];
  /** Those whose value is a file it reads. */
  reads: readonly string[];
}

const GREP_VALUED = [
  '-e',
  '--regexp',
  '-f',
  '--file',
  '-m',
  '--max-count',
  '-A',
  '--after-context',
  '-B',
  '--before-context',
  '-C',
  '--context',
  '-d',
  '--directories',
  '-D',
  '--devices',
  '--label',
  '--include',
  '--exclude',
  '--exclude-from',
  '--exclude-dir',
  '--binary-files',
  '--color',
  '--colour',
  '--group-separator',
];

const GREP: OptionReader = { valued: GREP_VALUED, reads: ['-f', '--file', '--exclude-from'] };

const READERS: Readonly<Record<string, OptionReader>> = {
  grep: GREP,
  egrep: GREP,
  fgrep: GREP,
  rg: { valued: RIPGREP_VALUED_OPTIONS, reads: ['-f', '--file', '--ignore-file'] },
};

/** The paths the command reads through its options (`-` is its standard input, no file). */
export function optionReads(argv: readonly Arg[]): Arg[] {
  const [name, ...args] = argv;
  if (!known(name)) return [];
  const reader = READERS[name.value];
  if (!reader) return [];
  const parsed = parseArgs(args, reader.valued);
  return optionValues(parsed, ...reader.reads).filter((a) => !(known(a) && a.value === '-'));
}
