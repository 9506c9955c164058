/** How a retry reads wherever it is shown (the panel's run tree, the CLI): "retry 2/4 in 2 s · 429: rate limited". */
export function retryText(retry: { attempt: number; maxRetries: number; delayMs: number; error: string }): string {
  const wait = retry.delayMs < 1000 ? `${Math.round(retry.delayMs)} ms` : `${Math.ceil(retry.delayMs / 1000)} s`;
  return `retry ${retry.attempt}/${retry.maxRetries} in ${wait} · ${retry.error}`;
}
