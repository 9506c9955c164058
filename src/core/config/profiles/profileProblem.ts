import type { ConfigProblem } from '../../../shared/protocol';

/** A position in a text file, 0-based, as the language server protocol counts (UTF-16 units). */
export interface TextPosition {
  line: number;
  character: number;
}

export interface TextRange {
  start: TextPosition;
  end: TextPosition;
}

export type ProblemSeverity = ConfigProblem['severity'];

/**
 * What kind of problem or note: stable names for the corpus figures, the editor's diagnostic codes
 * and the quick fixes. Errors keep a profile out; warnings and notes leave it working.
 */
export type ProblemCode =
  // the file cannot become a profile
  | 'no-front-matter'
  | 'bad-yaml'
  | 'not-a-mapping'
  | 'no-name'
  | 'no-description'
  | 'bad-name'
  | 'reserved-name'
  | 'bad-value'
  | 'duplicate'
  // the profile works, differently from what the file says
  | 'unknown-field'
  | 'field-ignored'
  | 'tool-unknown'
  | 'tool-editor'
  | 'tool-foreign'
  | 'tool-renamed'
  | 'tool-later'
  | 'tool-mcp'
  | 'tool-approximate'
  | 'tool-unsupported'
  | 'no-usable-tools'
  | 'write-without-read'
  | 'model-unknown'
  | 'model-unavailable'
  | 'model-no-key'
  | 'agent-missing'
  | 'delegation-cycle'
  | 'acp-conflict'
  // notes: said so nobody is surprised
  | 'lenient-front-matter'
  | 'id-from-name'
  | 'replaces';

/** Data a quick fix needs: the text to put in place of the problem's range. */
export interface ProblemFix {
  title: string;
  /** Replaces the problem's range; an empty range inserts. */
  newText: string;
  /** Where to apply it when not at the problem's own range (e.g. insert a missing field). */
  range?: TextRange;
}

/** A profile that could not be used, or a note on one that is used differently from what it says. */
export interface ProfileProblem {
  /** Where it comes from, for people: "user settings", ".claude/agents/x.md", "~/.claude/agents/x.md". */
  source: string;
  /** The agent's id, or '' when the file has none yet. */
  name: string;
  /** The field at fault, dotted ('tools.2'), or '' for the whole profile. */
  field: string;
  /** A plain sentence (or a few): what is wrong and what to do. Never a raw schema dump. */
  message: string;
  severity: ProblemSeverity;
  code: ProblemCode;
  /** The file, absolute, when the profile comes from one. */
  path?: string;
  /** Where in that file (the field's key or value, the tool in the list). */
  range?: TextRange;
  /** The setting that defines it, when it comes from settings ("subagents.agents"). */
  setting?: string;
  /** Edits that fix it, for the editor's quick fixes. */
  fixes?: ProblemFix[];
}

export const isError = (p: Pick<ProfileProblem, 'severity'>): boolean => p.severity === 'error';
