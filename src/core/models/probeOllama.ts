import { z } from 'zod';
import { lazySchema } from '../../shared/lazySchema';

/** Ollama's own default address; OLLAMA_HOST moves it, as it does for Ollama's own clients. */
export function ollamaBaseUrl(env: NodeJS.ProcessEnv = process.env): string {
  const host = env.OLLAMA_HOST?.trim();
  if (!host) return 'http://127.0.0.1:11434';
  const withScheme = /^https?:\/\//.test(host) ? host : `http://${host}`;
  return withScheme.replace(/\/+$/, '');
}

const tagsSchema = lazySchema(() => z.object({ models: z.array(z.object({ name: z.string().min(1) })) }));

/**
 * The models of a local Ollama, or undefined when none answers quickly. Used to offer Ollama on
 * first run; a short timeout, because nobody should wait for a server that is not there.
 */
export async function probeOllama(baseUrl: string, timeoutMs = 1500): Promise<string[] | undefined> {
  try {
    const response = await fetch(`${baseUrl}/api/tags`, { signal: AbortSignal.timeout(timeoutMs) });
    if (!response.ok) return undefined;
    const parsed = tagsSchema.safeParse(await response.json());
    return parsed.success ? parsed.data.models.map((m) => m.name) : undefined;
  } catch {
    return undefined;
  }
}

/** The spec that runs an Ollama model through its OpenAI-compatible endpoint. */
export function ollamaSpec(baseUrl: string, model: string): string {
  return `openai-compatible:${baseUrl}/v1#${model}`;
}
