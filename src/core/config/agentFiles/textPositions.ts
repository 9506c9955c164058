import type { TextPosition, TextRange } from '../profiles/profileProblem';

/** Offsets of a text as line/character positions, by a binary search over its line starts. */
export class TextPositions {
  private readonly starts: number[] = [0];

  constructor(readonly text: string) {
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) this.starts.push(i + 1);
  }

  get lineCount(): number {
    return this.starts.length;
  }

  positionAt(offset: number): TextPosition {
    const clamped = Math.max(0, Math.min(offset, this.text.length));
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (this.starts[mid]! <= clamped) low = mid;
      else high = mid - 1;
    }
    return { line: low, character: clamped - this.starts[low]! };
  }

  offsetAt(position: TextPosition): number {
    const start = this.starts[Math.max(0, Math.min(position.line, this.starts.length - 1))]!;
    return Math.min(start + position.character, this.text.length);
  }

  range(start: number, end: number): TextRange {
    return { start: this.positionAt(start), end: this.positionAt(end) };
  }

  /** The whole of line `line` without its line break. */
  lineRange(line: number): TextRange {
    const start = this.starts[line] ?? this.text.length;
    const next = this.starts[line + 1];
    let end = next === undefined ? this.text.length : next - 1;
    if (end > start && this.text.charCodeAt(end - 1) === 13) end--;
    return this.range(start, end);
  }

  lineText(line: number): string {
    const r = this.lineRange(line);
    return this.text.slice(this.offsetAt(r.start), this.offsetAt(r.end));
  }
}
