/** One argument of a command after bash's static expansion: its value, or why it is unknown. */
export type Arg = { value: string } | { unknown: string; variable: boolean; why: string };

export function known(arg: Arg | undefined): arg is { value: string } {
  return arg !== undefined && 'value' in arg;
}

export function shown(arg: Arg): string {
  return 'value' in arg ? arg.value : arg.unknown;
}

export const UNKNOWN_INPUT: Arg = { unknown: '<input>', variable: true, why: 'its arguments come from its input' };

export interface ParsedArgs {
  /** Options by name (`-t`, `--target-directory`), with their values if they take one. */
  options: Map<string, Arg[]>;
  operands: Arg[];
}

/**
 * GNU-style options: short clusters (`-rf`), values attached or separate (`-tDIR`, `-t DIR`,
 * `--target-directory=DIR`), and `--` ending the options. `valued` lists the options that take a
 * value. `stopAtOperand` stops at the first operand (for commands that run the rest, like `env`).
 */
export function parseArgs(args: readonly Arg[], valued: readonly string[], stopAtOperand = false): ParsedArgs & { rest: Arg[] } {
  const options = new Map<string, Arg[]>();
  const operands: Arg[] = [];
  const add = (name: string, value?: Arg) => {
    const list = options.get(name) ?? [];
    if (value) list.push(value);
    options.set(name, list);
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (!known(arg) || arg.value === '-' || !arg.value.startsWith('-')) {
      if (stopAtOperand) return { options, operands, rest: args.slice(i) };
      operands.push(arg);
      continue;
    }
    const text = arg.value;
    if (text === '--') {
      const rest = args.slice(i + 1);
      if (stopAtOperand) return { options, operands, rest };
      operands.push(...rest);
      break;
    }
    if (text.startsWith('--')) {
      const eq = text.indexOf('=');
      const name = longName(eq < 0 ? text : text.slice(0, eq), valued);
      if (eq >= 0) add(name, { value: text.slice(eq + 1) });
      else if (valued.includes(name) && i + 1 < args.length) add(name, args[++i]);
      else add(name);
      continue;
    }
    for (let j = 1; j < text.length; j++) {
      const name = `-${text[j]}`;
      if (!valued.includes(name)) {
        add(name);
        continue;
      }
      const attached = text.slice(j + 1);
      if (attached) add(name, { value: attached });
      else if (i + 1 < args.length) add(name, args[++i]);
      else add(name);
      break;
    }
  }
  return { options, operands, rest: [] };
}

/**
 * GNU's getopt_long takes any unambiguous prefix of a long option (`sort --out=f` is
 * `--output=f`): a prefix of one that takes a value is read as that option, the first listed when
 * several share it (a program would refuse an ambiguous one, so reading it as any is safe).
 */
function longName(name: string, valued: readonly string[]): string {
  if (valued.includes(name) || name.length < 4) return name;
  return valued.find((v) => v.startsWith('--') && v.startsWith(name)) ?? name;
}

/** Whether any of these long options was given, whole or as a GNU abbreviation (`--compress` for `--compress-program`). */
export function hasLongOption(parsed: ParsedArgs, ...names: string[]): boolean {
  return [...parsed.options.keys()].some((k) => names.some((n) => k === n || (k.startsWith('--') && k.length >= 4 && n.startsWith(k))));
}

/** The values of any of these options, in order. */
export function optionValues(parsed: ParsedArgs, ...names: string[]): Arg[] {
  return names.flatMap((n) => parsed.options.get(n) ?? []);
}

export function hasOption(parsed: ParsedArgs, ...names: string[]): boolean {
  return names.some((n) => parsed.options.has(n));
}
