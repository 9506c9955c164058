import { z } from 'zod';
import { ModelSpecError } from './modelResolver';
import { errorText } from '../../shared/errorText';

/** A model spec, parsed. */
export type ModelSpec =
  | { kind: 'vscode-lm'; vendor: string; family: string }
  | { kind: 'openai-compatible'; baseURL: string; model: string }
  | { kind: 'openai'; model: string }
  | { kind: 'anthropic'; model: string }
  | { kind: 'scripted'; path: string };

export type ModelSpecKind = ModelSpec['kind'];

export const ACCEPTED_MODEL_SPECS =
  'vscode-lm:<vendor>/<family> (e.g. vscode-lm:copilot/gpt-4o), ' +
  'openai-compatible:<baseURL>#<model> (e.g. openai-compatible:http://localhost:11434/v1#llama3.1), ' +
  'openai:<model>, anthropic:<model>, scripted:<path to a JSON script>';

function bad(spec: string, why: string): ModelSpecError {
  return new ModelSpecError(`The model spec "${spec}" ${why}. Use one of: ${ACCEPTED_MODEL_SPECS}.`);
}

/** Parses a spec such as `openai:gpt-4o`; throws ModelSpecError listing the accepted forms. */
export function parseModelSpec(spec: string): ModelSpec {
  const trimmed = spec.trim();
  if (trimmed === '') throw bad(spec, 'is empty: no model is set (subagents.model)');
  const colon = trimmed.indexOf(':');
  if (colon <= 0) throw bad(spec, 'has no provider prefix');
  const prefix = trimmed.slice(0, colon);
  const rest = trimmed.slice(colon + 1).trim();
  switch (prefix) {
    case 'vscode-lm': {
      const slash = rest.indexOf('/');
      const vendor = rest.slice(0, slash).trim();
      const family = rest.slice(slash + 1).trim();
      if (slash <= 0 || !vendor || !family) throw bad(spec, 'needs a vendor and a family, as in vscode-lm:copilot/gpt-4o');
      return { kind: 'vscode-lm', vendor, family };
    }
    case 'openai-compatible': {
      const hash = rest.lastIndexOf('#');
      const baseURL = hash < 0 ? '' : rest.slice(0, hash).trim();
      const model = hash < 0 ? '' : rest.slice(hash + 1).trim();
      if (!baseURL || !model) throw bad(spec, 'needs a base URL and a model separated by "#"');
      let url: URL;
      try {
        url = new URL(baseURL);
      } catch {
        throw bad(spec, `has a base URL that is not a URL ("${baseURL}")`);
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw bad(spec, 'needs an http:// or https:// base URL');
      return { kind: 'openai-compatible', baseURL: baseURL.replace(/\/+$/, ''), model };
    }
    case 'openai':
    case 'anthropic':
      if (!rest) throw bad(spec, 'names no model');
      return { kind: prefix, model: rest };
    case 'scripted':
      if (!rest) throw bad(spec, 'names no script file');
      return { kind: 'scripted', path: rest };
    default:
      throw bad(spec, `has an unknown provider "${prefix}"`);
  }
}

/** A model spec in a setting or a profile: checked when it is read, with the parser's own message. */
export const modelSpecSchema = z.string().superRefine((spec, ctx) => {
  try {
    parseModelSpec(spec);
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: errorText(error) });
  }
});
