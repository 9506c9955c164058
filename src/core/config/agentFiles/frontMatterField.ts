import type { TextRange } from '../profiles/profileProblem';

/** One field of the front matter, with where its key and value are in the file. */
export interface FrontMatterField {
  key: string;
  value: unknown;
  keyRange: TextRange;
  valueRange: TextRange;
  /** The items of a list value, each with its own range. */
  items?: { value: unknown; range: TextRange }[];
}
