/**
 * ripgrep's options that take a value (`-g GLOB`, `--max-count N`): the judge reads such a value as
 * the option's, never as a flag of its own, wherever it reads an rg command line (its programs in
 * disguisedEffects.ts, the walks that follow links in unnamedReads.ts).
 */
export const RIPGREP_VALUED_OPTIONS: readonly string[] = [
  '--pre',
  '--hostname-bin',
  '--pre-glob',
  '-e',
  '--regexp',
  '-f',
  '--file',
  '-g',
  '--glob',
  '-t',
  '--type',
  '-T',
  '--type-not',
  '-m',
  '--max-count',
  '-A',
  '-B',
  '-C',
  '-j',
  '--threads',
  '-M',
  '--max-columns',
  '-r',
  '--replace',
];
