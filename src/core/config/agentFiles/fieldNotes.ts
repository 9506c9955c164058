import type { ProblemSeverity } from '../profiles/profileProblem';
import type { FieldDoc } from './agentFields';
import type { FileCheck } from './fileCheck';
import type { FrontMatterField } from './frontMatter';
import { nearest } from './nearest';

/** A field this product reads but cannot honour: a note at its key, with why (from the field table). */
export function ignoredField(check: FileCheck, field: FrontMatterField, why: string, severity: ProblemSeverity = 'information'): void {
  check.add(
    'field-ignored',
    severity,
    field.key,
    `"${field.key}" is ignored here. ${capital(why.replace(/^Not used here yet: /, '').replace(/\.$/, ''))}`,
    field.keyRange,
  );
}

/** A field the format does not define: a note, or a warning with a fix when it looks like a typo. */
export function unknownField(
  check: FileCheck,
  field: FrontMatterField,
  known: Readonly<Record<string, FieldDoc>>,
  format: string,
  severity: ProblemSeverity,
): void {
  const guess = nearest(
    field.key,
    Object.keys(known).filter((k) => !check.field(k)),
  );
  if (guess) {
    check.add(
      'unknown-field',
      'warning',
      field.key,
      `"${field.key}" is not a field of ${format}; did you mean "${guess}"?`,
      field.keyRange,
      [{ title: `Rename to "${guess}"`, newText: guess }],
    );
    return;
  }
  check.add(
    'unknown-field',
    severity,
    field.key,
    `"${field.key}" is not a field of ${format}, so it is ignored; the fields are ${Object.keys(known).join(', ')}`,
    field.keyRange,
  );
}

/** A value of the wrong kind in an imported file: a warning, and the field is left out. */
export function wrongValue(check: FileCheck, field: FrontMatterField, expected: string): void {
  check.add('bad-value', 'warning', field.key, `"${field.key}" must be ${expected}, so it is ignored`, field.valueRange);
}

const capital = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

/** `model:` of an imported file, as written (a name or a list); resolved with the other profiles. */
export function importModel(check: FileCheck, field: FrontMatterField, input: Record<string, unknown>): void {
  if (field.value === null || field.value === '') return;
  if (typeof field.value !== 'string' && !Array.isArray(field.value)) {
    wrongValue(check, field, 'a model name (sonnet, GPT-4.1, inherit) or a list of them');
    return;
  }
  input['model'] = Array.isArray(field.value) ? field.value.map(String) : field.value;
  check.ranges['model'] = field.valueRange;
}
