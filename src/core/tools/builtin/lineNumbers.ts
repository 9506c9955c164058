/**
 * read_file shows each line as `cat -n` prints it: the number right-aligned in six columns (wider
 * past 999999), a tab, the line. Models paste such lines back into edit_file's oldText and
 * newText; these helpers number lines and take the numbers off again, but only text that has
 * exactly that shape on every line, numbered one after another, so real text that starts with
 * digits is left alone.
 */

const WIDTH = 6;

/** `     7\tconst a = 1;`, as `cat -n` prints line 7. */
export function numberLine(line: string, number: number): string {
  return `${String(number).padStart(WIDTH)}\t${line}`;
}

/** The numbers as `cat -n` pads them: no other spacing counts as the shape. */
const PREFIX = /^( *)(\d+)(\t|$)/;

function prefixOf(line: string): { number: number; length: number } | undefined {
  const m = PREFIX.exec(line);
  if (!m) return undefined;
  const [, spaces, digits, tab] = m as unknown as [string, string, string, string];
  if (spaces.length + digits.length !== Math.max(WIDTH, digits.length)) return undefined;
  // A line that is only a number is a blank line whose tab was trimmed: nothing may follow it.
  return { number: Number(digits), length: spaces.length + digits.length + tab.length };
}

/**
 * `text` without read_file's numbers when every line carries one, numbered one after another (a
 * final empty piece after the last newline is no line); undefined when it is not such text.
 */
export function withoutLineNumbers(text: string): string | undefined {
  const lines = text.split('\n');
  const last = lines.length > 1 && lines[lines.length - 1] === '' ? lines.pop() : undefined;
  let expected: number | undefined;
  const stripped: string[] = [];
  for (const line of lines) {
    const prefix = prefixOf(line);
    if (!prefix || (expected !== undefined && prefix.number !== expected)) return undefined;
    expected = prefix.number + 1;
    stripped.push(line.slice(prefix.length));
  }
  if (last !== undefined) stripped.push(last);
  return stripped.join('\n');
}

/** newText beside a numbered oldText: the numbers come off the lines that carry them; new lines have none. */
export function withoutShownNumbers(text: string): string {
  return text
    .split('\n')
    .map((line) => {
      const prefix = prefixOf(line);
      return prefix ? line.slice(prefix.length) : line;
    })
    .join('\n');
}
