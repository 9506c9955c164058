/**
 * Keeps the head and the tail of a stream of text within a budget and counts what fell out of the
 * middle: the start of a command's output says what it did, the end says how it went.
 */
export class OutputCap {
  private head = '';
  private tail = '';
  private cut = 0;
  private readonly headMax: number;
  private readonly tailMax: number;

  constructor(maxChars: number) {
    this.headMax = Math.floor(maxChars / 3);
    this.tailMax = maxChars - this.headMax;
  }

  push(text: string): void {
    if (this.head.length < this.headMax) {
      const room = this.headMax - this.head.length;
      this.head += text.slice(0, room);
      text = text.slice(room);
    }
    if (!text) return;
    this.tail += text;
    // Trim only when well over budget, so a stream of small chunks is not copied for each one.
    if (this.tail.length > this.tailMax * 2) this.trimTail();
  }

  /** The text kept, with a note where the middle was cut. */
  result(): { text: string; cutChars: number } {
    this.trimTail();
    if (this.cut === 0) return { text: this.head + this.tail, cutChars: 0 };
    return { text: `${this.head}\n[… ${this.cut} characters cut …]\n${this.tail}`, cutChars: this.cut };
  }

  private trimTail(): void {
    const over = this.tail.length - this.tailMax;
    if (over <= 0) return;
    this.cut += over;
    this.tail = this.tail.slice(over);
  }
}

/** Caps a whole text the same way: head and tail kept, the cut counted. */
export function capText(text: string, maxChars: number): { text: string; cutChars: number } {
  const cap = new OutputCap(maxChars);
  cap.push(text);
  return cap.result();
}
