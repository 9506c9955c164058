import type { z } from 'zod';

type Issue = z.core.$ZodIssue;

const KIND_WORDS: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object of fields',
};

/** zod's own wording starts so; a schema's custom message does not, and is used as written. */
const DEFAULT_WORDING = /^(Invalid|Too (small|big)|Expected|Unrecognized|Number must|String must)/;

/**
 * One zod issue as a plain phrase about its field ("must be a number", "must be at least 1"):
 * what people read in the panel, the CLI and the editor, never zod's JSON.
 */
export function zodIssueText(issue: Issue): string {
  if (issue.message && !DEFAULT_WORDING.test(issue.message)) return issue.message;
  switch (issue.code) {
    case 'invalid_type':
      return `must be ${KIND_WORDS[issue.expected] ?? issue.expected}`;
    case 'too_small': {
      const min = Number(issue.minimum);
      if (issue.origin === 'string') return min <= 1 ? 'must not be empty' : `must be at least ${min} characters long`;
      if (issue.origin === 'array') return `must list at least ${min} ${min === 1 ? 'item' : 'items'}`;
      return `must be at least ${min}`;
    }
    case 'too_big': {
      const max = Number(issue.maximum);
      if (issue.origin === 'string') return `must be at most ${max} characters long`;
      if (issue.origin === 'array') return `must list at most ${max} items`;
      return `must be at most ${max}`;
    }
    case 'invalid_value':
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'invalid_format':
      return `is not in the expected form (${issue.format})`;
    case 'unrecognized_keys':
      return `has unknown ${issue.keys.length === 1 ? 'field' : 'fields'} ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
    case 'invalid_union':
      return 'has the wrong form';
    default:
      return 'is not valid here';
  }
}

/** A field path for people: "maxSteps", "tools" item 2. */
export function fieldLabel(path: readonly PropertyKey[]): string {
  const names = path.filter((p) => typeof p !== 'number').map(String);
  const index = path.findLast((p) => typeof p === 'number');
  const base = `"${names.join('.') || 'profile'}"`;
  return index === undefined ? base : `${base} item ${Number(index) + 1}`;
}
