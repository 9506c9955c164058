/**
 * A model spec as the prompt box names it: "Demo (scripted)" for the demo's script, "gpt-4.1
 * (OpenAI)", "gpt-4o (copilot)", "llama3.1 (localhost:11434)". The spec itself goes in the tooltip.
 */

const PROVIDERS: Record<string, string> = { openai: 'OpenAI', anthropic: 'Anthropic' };

export function modelLabel(spec: string): string {
  const trimmed = spec.trim();
  if (trimmed === '') return 'No model';
  const colon = trimmed.indexOf(':');
  // An alias (subagents.modelAliases) or a spec the host will refuse: shown as written.
  if (colon <= 0) return trimmed;
  const prefix = trimmed.slice(0, colon);
  const rest = trimmed.slice(colon + 1).trim();
  switch (prefix) {
    case 'scripted': {
      const name = rest.split(/[\\/]/).pop() ?? rest;
      return name === 'demo-script.json' ? 'Demo (scripted)' : `Scripted (${name})`;
    }
    case 'vscode-lm': {
      const [vendor, family] = rest.split('/', 2);
      return family ? `${family} (${vendor})` : rest;
    }
    case 'openai-compatible': {
      const hash = rest.lastIndexOf('#');
      const model = rest.slice(hash + 1);
      let host = rest.slice(0, Math.max(0, hash));
      try {
        host = new URL(host).host;
      } catch {
        // Not a URL: shown as written.
      }
      return hash < 0 ? rest : `${model} (${host})`;
    }
    default:
      return PROVIDERS[prefix] ? `${rest} (${PROVIDERS[prefix]})` : trimmed;
  }
}
