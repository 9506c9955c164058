import type { ProblemCode, ProblemFix, ProblemSeverity, ProfileProblem, TextRange } from '../profiles/profileProblem';
import type { AgentFileDialect } from './agentFields';
import type { FrontMatter, FrontMatterField } from './frontMatter';

/** An agent file to read: where it is, how people name it, and whose format it is in. */
export interface AgentFileInfo {
  /** Absolute path. */
  path: string;
  /** For people: ".claude/agents/x.md", "~/.claude/agents/x.md". */
  source: string;
  dialect: AgentFileDialect;
}

/** One item of a list field (or of a comma-separated string), with its place in the file. */
export interface ListItem {
  value: string;
  range: TextRange;
}

/**
 * What reading one file collects: its problems, each at the field or item it is about, and the
 * ranges of the fields that made it into the profile (so later checks can point at them too).
 */
export class FileCheck {
  readonly problems: ProfileProblem[] = [];
  readonly ranges: Record<string, TextRange> = {};
  id = '';

  constructor(
    readonly info: AgentFileInfo,
    readonly frontMatter: FrontMatter,
  ) {}

  field(key: string): FrontMatterField | undefined {
    return this.frontMatter.fields.find((f) => f.key === key);
  }

  /** The whole first line: where problems about the file as a whole go. */
  get fileRange(): TextRange {
    return this.frontMatter.positions.lineRange(0);
  }

  add(code: ProblemCode, severity: ProblemSeverity, field: string, message: string, range: TextRange, fixes?: ProblemFix[]): void {
    this.problems.push({
      source: this.info.source,
      name: this.id,
      field,
      message,
      severity,
      code,
      path: this.info.path,
      range,
      ...(fixes?.length ? { fixes } : {}),
    });
  }

  /** A list field's items as strings: a YAML list, or Claude Code's "Read, Grep, Glob". */
  items(field: FrontMatterField): ListItem[] {
    if (field.items)
      return field.items
        .filter((i) => typeof i.value === 'string' || typeof i.value === 'number')
        .map((i) => ({ value: String(i.value).trim(), range: i.range }));
    if (typeof field.value !== 'string') return [];
    const { positions } = this.frontMatter;
    const start = positions.offsetAt(field.valueRange.start);
    const end = positions.offsetAt(field.valueRange.end);
    const raw = positions.text.slice(start, end);
    const quoted = /^["']/.test(raw) ? 1 : 0;
    if (field.valueRange.start.line !== field.valueRange.end.line || raw.slice(quoted, raw.length - quoted) !== field.value) {
      return splitList(field.value)
        .map((v) => v.trim())
        .filter(Boolean)
        .map((value) => ({ value, range: field.valueRange }));
    }
    const out: ListItem[] = [];
    let offset = start + quoted;
    for (const part of splitList(field.value)) {
      const lead = part.length - part.trimStart().length;
      const value = part.trim();
      if (value) out.push({ value, range: positions.range(offset + lead, offset + lead + value.length) });
      offset += part.length + 1;
    }
    return out;
  }
}

/** Splits "Read, Task(a, b), Bash(git:*)" at the commas outside parentheses. */
function splitList(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(') depth++;
    else if (c === ')') depth = Math.max(0, depth - 1);
    else if (c === ',' && depth === 0) {
      parts.push(text.slice(from, i));
      from = i + 1;
    }
  }
  parts.push(text.slice(from));
  return parts;
}
