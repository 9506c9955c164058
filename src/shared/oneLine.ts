/**
 * A value as one line of at most `max` characters: whitespace runs become one space, a longer
 * text is cut with an ellipsis, anything not a string is shown as JSON. For lists, logs and trees.
 */
export function oneLine(value: unknown, max = 100): string {
  const text = (typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value)) ?? '';
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
