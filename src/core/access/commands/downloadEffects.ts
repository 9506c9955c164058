import { hasOption, known, optionValues, parseArgs, type Arg } from './args';
import type { Effects } from './effects';

// Downloaders: what they write is named by an option, or by the URL or the server (then nothing can
// say which file, so the judge asks as for a command it cannot read).

/** curl writes only what `-o` names (`-` is its output); `-O`, `-J` and `--output-dir` name files it chooses. */
export function curl(args: Arg[]): Partial<Effects> {
  const parsed = parseArgs(args, [
    '-o',
    '--output',
    '-K',
    '--config',
    '-d',
    '--data',
    '-H',
    '--header',
    '-X',
    '--request',
    '-u',
    '--user',
    '-A',
    '-e',
    '-T',
    '--upload-file',
    '--output-dir',
    '-w',
    '-m',
    '--max-time',
  ]);
  if (hasOption(parsed, '-K', '--config')) return { opaque: 'curl reads its options from a file' };
  if (hasOption(parsed, '-O', '--remote-name', '--remote-name-all', '-J', '--remote-header-name', '--output-dir'))
    return { opaque: 'curl writes a file named by the URL or the server' };
  return { writes: optionValues(parsed, '-o', '--output').filter((a) => !(known(a) && a.value === '-')) };
}

/** wget writes what `-O` names; without it, a file named by the URL. */
export function wget(args: Arg[]): Partial<Effects> {
  const parsed = parseArgs(args, [
    '-O',
    '--output-document',
    '-P',
    '--directory-prefix',
    '-o',
    '--output-file',
    '-a',
    '--append-output',
    '-e',
    '--execute',
    '-i',
    '--input-file',
  ]);
  const document = optionValues(parsed, '-O', '--output-document');
  if (hasOption(parsed, '-e', '--execute')) return { opaque: 'wget runs commands given in its options' };
  if (!document.length) return { opaque: 'wget writes a file named by the URL or the server' };
  return {
    writes: [...document, ...optionValues(parsed, '-o', '--output-file', '-a', '--append-output')].filter(
      (a) => !(known(a) && a.value === '-'),
    ),
  };
}
