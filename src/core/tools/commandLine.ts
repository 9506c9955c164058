/**
 * Splits a shell command line into the simple commands it runs, so each can be judged on its own:
 * `a && b | c; d`, newlines, `$(…)`, backticks and `<(…)` all yield separate commands, and every
 * redirection is listed with its target.
 *
 * Written here rather than taken from npm: shell-quote (checked at 1.12) joins newline-separated
 * commands into one, leaves backticks and `$(…)` inside double quotes as plain text, and accepts an
 * unterminated quote, each of which would let a command pass unjudged; sh-syntax is a full parser
 * but ships a 750 KB Go runtime in WebAssembly. This one is small because it is conservative:
 * whatever it does not fully understand (heredocs, subshells, control flow, `${…}` operators,
 * arithmetic, ANSI-C quotes) makes the line unparsable, and an unparsable line asks the user.
 */

/** A word as the shell would see it; `dynamic` when its value is known only when it runs. */
export interface Word {
  value: string;
  dynamic: boolean;
  /** It expands a variable or `~`: a value from the environment, not from the line. */
  variable: boolean;
}

/** How a piece of a word expands when the command runs. */
type Expansion = 'substitution' | 'variable' | 'glob';

export interface Redirect {
  /** `>`, `>>`, `>|`, `&>`, `&>>`, `<`, `<>`, `>&`, `<&`. */
  op: string;
  target: Word;
  /** True when the target is a file descriptor (`2>&1`), not a file. */
  fd: boolean;
}

export interface SimpleCommand {
  words: Word[];
  redirects: Redirect[];
}

export type ParsedCommandLine = { ok: true; commands: SimpleCommand[] } | { ok: false; reason: string };

class Unparsable extends Error {}

const CONTROL_WORDS = new Set(['if', 'then', 'else', 'elif', 'fi', 'for', 'while', 'until', 'do', 'done', 'case', 'esac', 'select', 'function', 'coproc', '{', '}', '[[', ']]']);

export function parseCommandLine(line: string): ParsedCommandLine {
  try {
    const parser = new Parser(line);
    const commands = parser.list(undefined);
    return { ok: true, commands };
  } catch (error) {
    if (error instanceof Unparsable) return { ok: false, reason: error.message };
    throw error;
  }
}

class Parser {
  private i = 0;
  /** Every simple command found, substitutions' commands included. */
  private readonly out: SimpleCommand[] = [];

  constructor(private readonly text: string) {}

  /** Parses commands until the end of the text, or until `close` (the `)` of a substitution). */
  list(close: ')' | undefined): SimpleCommand[] {
    let cmd: SimpleCommand = { words: [], redirects: [] };
    let word: Word | undefined;
    let quoted = false;
    let pending: string | undefined;
    const t = this.text;

    const endWord = () => {
      if (!word) return;
      if (pending) {
        const fd = (pending === '>&' || pending === '<&') && /^(\d+|-)$/.test(word.value) && !word.dynamic;
        cmd.redirects.push({ op: pending, target: word, fd });
        pending = undefined;
      } else {
        if (!quoted && CONTROL_WORDS.has(word.value) && (cmd.words.length === 0 || word.value === '}' || word.value === ']]')) {
          throw new Unparsable(`it uses shell control flow or grouping ("${word.value}")`);
        }
        cmd.words.push(word);
      }
      word = undefined;
      quoted = false;
    };
    const endCommand = () => {
      endWord();
      if (pending) throw new Unparsable(`the redirection "${pending}" has no target`);
      if (cmd.words.length > 0 || cmd.redirects.length > 0) this.out.push(cmd);
      cmd = { words: [], redirects: [] };
    };
    const beforeRedirect = (mayTakeDescriptor: boolean) => {
      if (pending && !word) throw new Unparsable(`the redirection "${pending}" has no target`);
      // A word of digits right before the operator is the descriptor (`2>`), not an argument.
      if (mayTakeDescriptor && !pending && word && !quoted && !word.dynamic && /^\d+$/.test(word.value)) word = undefined;
      else endWord();
    };
    const append = (s: string, expansion?: Expansion) => {
      word ??= { value: '', dynamic: false, variable: false };
      word.value += s;
      if (expansion) word.dynamic = true;
      if (expansion === 'variable') word.variable = true;
    };

    while (this.i < t.length) {
      const c = t[this.i]!;
      const next = t[this.i + 1];
      if (c === ' ' || c === '\t') {
        endWord();
        this.i++;
      } else if (c === '\n' || c === '\r') {
        endCommand();
        this.i++;
      } else if (c === '#' && !word) {
        while (this.i < t.length && t[this.i] !== '\n') this.i++;
      } else if (c === '\\') {
        if (next === undefined) throw new Unparsable('it ends with a backslash');
        if (next !== '\n') append(next);
        this.i += 2;
      } else if (c === "'") {
        const end = t.indexOf("'", this.i + 1);
        if (end < 0) throw new Unparsable('a single quote is not closed');
        append(t.slice(this.i + 1, end));
        quoted = true;
        this.i = end + 1;
      } else if (c === '"') {
        this.i++;
        append('');
        quoted = true;
        this.doubleQuoted(append);
      } else if (c === '`') {
        this.backticks();
        append('`…`', 'substitution');
      } else if (c === '$') {
        this.dollar(append);
      } else if (c === ';') {
        if (next === ';' || next === '&') throw new Unparsable('it uses a case statement');
        endCommand();
        this.i++;
      } else if (c === '&') {
        if (next === '>') {
          beforeRedirect(false);
          pending = t[this.i + 2] === '>' ? '&>>' : '&>';
          this.i += pending.length;
        } else {
          endCommand();
          this.i += next === '&' ? 2 : 1;
        }
      } else if (c === '|') {
        endCommand();
        this.i += next === '|' || next === '&' ? 2 : 1;
      } else if (c === '>' || c === '<') {
        if (next === '(') {
          // Process substitution: its command runs too.
          this.i += 2;
          this.list(')');
          append(`${c}(…)`, 'substitution');
          continue;
        }
        beforeRedirect(true);
        pending = this.redirectOperator(c);
        this.i += pending.length;
      } else if (c === '(') {
        throw new Unparsable('it uses a subshell or a function definition');
      } else if (c === ')') {
        if (close !== ')') throw new Unparsable('a ")" has no matching "("');
        endCommand();
        this.i++;
        return this.out;
      } else {
        // A leading ~ and unquoted glob characters expand when the command runs.
        append(c, c === '~' && !word ? 'variable' : c === '*' || c === '?' || c === '[' ? 'glob' : undefined);
        this.i++;
      }
    }
    if (close) throw new Unparsable('a "$(" is not closed');
    endCommand();
    return this.out;
  }

  private redirectOperator(c: '>' | '<'): string {
    const t = this.text;
    const next = t[this.i + 1];
    if (c === '<') {
      if (next === '<') throw new Unparsable('it uses a here-document or here-string');
      if (next === '>' || next === '&') return `<${next}`;
      return '<';
    }
    if (next === '>' || next === '|' || next === '&') return `>${next}`;
    return '>';
  }

  private doubleQuoted(append: (s: string, expansion?: Expansion) => void): void {
    const t = this.text;
    while (this.i < t.length) {
      const c = t[this.i]!;
      if (c === '"') {
        this.i++;
        return;
      }
      if (c === '\\') {
        const next = t[this.i + 1];
        if (next === undefined) break;
        if (next === '\n') {
          // A line continuation inside quotes: both characters vanish.
        } else if ('$`"\\'.includes(next)) append(next);
        else append(`\\${next}`);
        this.i += 2;
      } else if (c === '`') {
        this.backticks();
        append('`…`', 'substitution');
      } else if (c === '$') {
        this.dollar(append);
      } else {
        append(c);
        this.i++;
      }
    }
    throw new Unparsable('a double quote is not closed');
  }

  /** `$(…)`, `$NAME`, `${NAME}`, `$1`…; anything fancier is refused. */
  private dollar(append: (s: string, expansion?: Expansion) => void): void {
    const t = this.text;
    const next = t[this.i + 1];
    if (next === '(') {
      if (t[this.i + 2] === '(') throw new Unparsable('it uses arithmetic expansion "$(( ))"');
      this.i += 2;
      this.list(')');
      append('$(…)', 'substitution');
    } else if (next === '{') {
      const end = t.indexOf('}', this.i + 2);
      const name = end < 0 ? '' : t.slice(this.i + 2, end);
      if (!/^([A-Za-z_][A-Za-z0-9_]*|\d+|[@*#?$!-])$/.test(name)) throw new Unparsable('it uses a parameter expansion beyond "${NAME}"');
      append(`\${${name}}`, 'variable');
      this.i = end + 1;
    } else if (next !== undefined && /[A-Za-z_]/.test(next)) {
      const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(t.slice(this.i + 1))![0];
      append(`$${name}`, 'variable');
      this.i += 1 + name.length;
    } else if (next !== undefined && /[0-9@*#?$!-]/.test(next)) {
      append(`$${next}`, 'variable');
      this.i += 2;
    } else if (next === "'" || next === '"') {
      throw new Unparsable('it uses $\'…\' or $"…" quoting');
    } else {
      append('$');
      this.i++;
    }
  }

  /** `…`: the old form of command substitution; its content is parsed as a command line. */
  private backticks(): void {
    const t = this.text;
    let j = this.i + 1;
    let inner = '';
    while (j < t.length && t[j] !== '`') {
      if (t[j] === '\\') {
        if (t[j + 1] === '`') throw new Unparsable('it nests backticks');
        inner += t.slice(j, j + 2);
        j += 2;
      } else {
        inner += t[j];
        j++;
      }
    }
    if (j >= t.length) throw new Unparsable('a backtick is not closed');
    const parsed = parseCommandLine(inner);
    if (!parsed.ok) throw new Unparsable(parsed.reason);
    this.out.push(...parsed.commands);
    this.i = j + 1;
  }
}
