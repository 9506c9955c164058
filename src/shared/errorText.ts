/**
 * Error texts that reach events, threads and models are capped: a provider's HTML error page or a
 * tool's runaway message would otherwise fill the panel, the thread file and the model's context.
 */
export const MAX_ERROR_CHARS = 2000;

/** The text kept whole up to MAX_ERROR_CHARS; past it, the head and a count of what was cut. */
export function capErrorText(text: string): string {
  if (text.length <= MAX_ERROR_CHARS) return text;
  return `${text.slice(0, MAX_ERROR_CHARS)}… (${text.length - MAX_ERROR_CHARS} more characters cut)`;
}

/** What went wrong, in the error's own words (an Error's message, a string as is, anything else as JSON), capped. */
export function errorText(error: unknown): string {
  return capErrorText(uncapped(error));
}

function uncapped(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}
