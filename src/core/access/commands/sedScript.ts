/**
 * Whether a sed script writes files or runs commands itself: the `w`/`W` commands and the `w`
 * flag of `s` write the file named after them, `e` and the `e` flag run a shell command. Read
 * command by command, skipping the text inside `s`'s and `y`'s delimiters and `a`/`i`/`c` text.
 */
export function sedScriptConcern(script: string): string | undefined {
  const found = scan(script);
  return found ? `its sed script ${found}` : undefined;
}

function scan(script: string): string | undefined {
  let i = 0;
  const at = () => script[i];
  const skipBlanks = () => {
    while (i < script.length && /[\s;{}!]/.test(script[i]!)) i++;
  };
  while (i < script.length) {
    skipBlanks();
    // Addresses: line numbers, `$`, /regex/, \cREGEXc, and ranges.
    while (i < script.length && /[0-9$,~+]/.test(at()!)) i++;
    if (at() === '/' || at() === '\\') {
      const delimiter = at() === '\\' ? script[++i] : '/';
      i = skipDelimited(script, i + 1, delimiter!);
      while (/[IM]/.test(at() ?? '')) i++;
      continue;
    }
    const command = at();
    if (command === undefined) break;
    i++;
    if (command === 's' || command === 'y') {
      const delimiter = script[i];
      if (delimiter === undefined) break;
      i = skipDelimited(script, i + 1, delimiter);
      i = skipDelimited(script, i, delimiter);
      if (command === 's') {
        const flags = /^[0-9gpiImMe w]*/.exec(script.slice(i))![0];
        if (/e/.test(flags)) return 'runs a command (the e flag)';
        if (/w/.test(flags)) return 'writes a file (the w flag)';
        i += flags.length;
      }
    } else if (command === 'w' || command === 'W') return 'writes a file (the w command)';
    else if (command === 'e') return 'runs a command (the e command)';
    else if ('aic'.includes(command) || 'rRbtTlqQ:'.includes(command)) {
      // Text or a label to the end of the line.
      while (i < script.length && script[i] !== '\n') i++;
    }
  }
  return undefined;
}

/** The index after the next unescaped `delimiter` from `from`. */
function skipDelimited(script: string, from: number, delimiter: string): number {
  let i = from;
  while (i < script.length && script[i] !== delimiter) i += script[i] === '\\' ? 2 : 1;
  return i + 1;
}
