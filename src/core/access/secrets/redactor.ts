/**
 * The one redactor: every secret value the product knows of (the API keys in use, and the values
 * of environment variables named like keys, tokens, secrets and passwords) is replaced by a marker
 * wherever text leaves the engine: events, stored records, logs, errors, tool results a model
 * reads, and the CLI's output. Values shorter than MIN_SECRET_CHARS are not treated as secrets
 * (too likely to be ordinary words or numbers).
 */

export const MIN_SECRET_CHARS = 8;

/** Environment variables whose values are secrets, by name. */
const SECRET_NAME = /KEY|TOKEN|SECRET|PASSWORD/i;

export class Redactor {
  private readonly secrets = new Map<string, string>();
  private pattern: RegExp | undefined;
  /** Secrets by their first character, for the partial-suffix check of streamed text. */
  private byFirstChar = new Map<string, string[]>();
  private longest = 0;

  /** A redactor for the secrets in this environment. */
  static fromEnvironment(env: NodeJS.ProcessEnv): Redactor {
    const redactor = new Redactor();
    for (const [name, value] of Object.entries(env)) if (value && SECRET_NAME.test(name)) redactor.add(value, name);
    return redactor;
  }

  /** Learns a secret; `label` names it in the marker (a variable or provider name, never the value). */
  add(value: string | undefined, label = 'secret'): void {
    const secret = value?.trim();
    if (!secret || secret.length < MIN_SECRET_CHARS || this.secrets.has(secret)) return;
    this.secrets.set(secret, `[redacted ${label}]`);
    // Longest first, so a secret that contains another is replaced whole.
    const all = [...this.secrets.keys()].sort((a, b) => b.length - a.length);
    this.pattern = new RegExp(all.map(escapeRegExp).join('|'), 'g');
    this.longest = all[0]!.length;
    this.byFirstChar = new Map();
    for (const s of all) this.byFirstChar.set(s[0]!, [...(this.byFirstChar.get(s[0]!) ?? []), s]);
  }

  get size(): number {
    return this.secrets.size;
  }

  redactText(text: string): string {
    if (!this.pattern || text.length < MIN_SECRET_CHARS) return text;
    this.pattern.lastIndex = 0;
    if (!this.pattern.test(text)) return text;
    return text.replace(this.pattern, (secret) => this.secrets.get(secret) ?? '[redacted]');
  }

  /** A copy of a JSON-like value with every string redacted (object keys too); the input is left as it is. */
  redactValue<T>(value: T): T {
    if (!this.pattern) return value;
    return this.copy(value) as T;
  }

  /**
   * How many characters at the end of `text` could be the start of a secret that the next piece of
   * a stream completes: those are held back until it is known.
   */
  pendingSuffix(text: string): number {
    if (!this.pattern) return 0;
    for (let start = Math.max(0, text.length - this.longest + 1); start < text.length; start++) {
      const candidates = this.byFirstChar.get(text[start]!);
      if (!candidates) continue;
      const tail = text.slice(start);
      if (candidates.some((s) => s.length > tail.length && s.startsWith(tail))) return text.length - start;
    }
    return 0;
  }

  private copy(value: unknown): unknown {
    if (typeof value === 'string') return this.redactText(value);
    if (Array.isArray(value)) return value.map((v) => this.copy(v));
    if (value && typeof value === 'object') {
      if (value instanceof Error) return this.redactText(value.message);
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) out[this.redactText(k)] = this.copy(v);
      return out;
    }
    return value;
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
