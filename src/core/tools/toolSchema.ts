import type { JSONSchema7 } from '@ai-sdk/provider';
import { asSchema, jsonSchema, type Schema } from '@ai-sdk/provider-utils';
import type { AnyToolSpec } from './toolSpec';

/**
 * A tool's input schema as the model is sent it, on every call of every run: so only what a
 * model needs to call the tool. We drop here, the one place a tool spec becomes JSON schema:
 * - `$schema` (the draft's URL) on every tool;
 * - the safe-integer bounds (±9007199254740991) that `.int()` brings to every integer without a real bound;
 * - `additionalProperties: false` on every object: a model sends the fields it is shown;
 * - for a schema we validate ourselves (zod), the length guards (`minLength`, `maxLength`,
 *   `minItems`, `maxItems`): a call that breaks one is still refused, with zod's message, before
 *   it reaches the tool. A schema a tool brings as JSON (MCP) keeps them: nothing here checks it.
 * Real bounds (`.min(1)`, `.max(60000)` on numbers) stay: they say what a value means.
 *
 * Memoized per schema object: the SDK would convert a zod schema on every model call (about 0.2 ms
 * a tool), so each tool's schema is converted once per process, not per step.
 */
export function toolJsonSchema(input: AnyToolSpec['inputSchema']): Schema<unknown> {
  let schema = schemas.get(input);
  if (!schema) schemas.set(input, (schema = lean(asSchema(input))));
  return schema;
}

const schemas = new WeakMap<object, Schema<unknown>>();

/** The SDK's `jsonSchema` converts on first use and keeps the result. */
function lean(source: Schema<unknown>): Schema<unknown> {
  const validated = source.validate !== undefined;
  const shrink = (raw: JSONSchema7): JSONSchema7 => leanJsonSchema(raw, { validated });
  return jsonSchema(
    () => {
      const raw = source.jsonSchema;
      return isThenable(raw) ? Promise.resolve(raw).then(shrink) : shrink(raw);
    },
    { validate: source.validate },
  );
}

const SAFE_BOUNDS: Readonly<Record<string, number>> = {
  maximum: Number.MAX_SAFE_INTEGER,
  minimum: Number.MIN_SAFE_INTEGER,
  exclusiveMaximum: Number.MAX_SAFE_INTEGER,
  exclusiveMinimum: Number.MIN_SAFE_INTEGER,
};

/** Guards a model needs not read when the input is checked on our side before the tool runs. */
const LENGTH_GUARDS: ReadonlySet<string> = new Set(['minLength', 'maxLength', 'minItems', 'maxItems']);

/**
 * A copy of `schema` without `$schema`, the safe-integer bounds and `additionalProperties: false`,
 * at any depth; with `validated` (we check the input ourselves) without the length guards too.
 */
export function leanJsonSchema(schema: JSONSchema7, { validated = false }: { validated?: boolean } = {}): JSONSchema7 {
  const { $schema: _dropped, ...rest } = schema;
  return strip(rest, validated) as JSONSchema7;
}

function strip(value: unknown, validated: boolean): unknown {
  if (Array.isArray(value)) return value.map((v) => strip(v, validated));
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (SAFE_BOUNDS[key] !== undefined && v === SAFE_BOUNDS[key]) continue;
    if (key === 'additionalProperties' && v === false) continue;
    if (validated && LENGTH_GUARDS.has(key) && typeof v === 'number') continue;
    // `properties` names the input's fields: a field may be called "maximum"; its schema is still walked.
    out[key] = key === 'properties' ? stripEach(v, validated) : strip(v, validated);
  }
  return out;
}

/** The schemas of named fields: every name kept (a field may be called "maxLength"), each schema stripped. */
function stripEach(properties: unknown, validated: boolean): unknown {
  if (typeof properties !== 'object' || properties === null || Array.isArray(properties)) return strip(properties, validated);
  return Object.fromEntries(Object.entries(properties).map(([name, s]) => [name, strip(s, validated)]));
}

function isThenable(value: unknown): value is PromiseLike<JSONSchema7> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}
