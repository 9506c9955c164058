import type { JSONSchema7 } from '@ai-sdk/provider';
import { asSchema, jsonSchema, type Schema } from '@ai-sdk/provider-utils';
import type { AnyToolSpec } from './toolSpec';

/**
 * A tool's input schema as the model is sent it, on every call of every run: so only what a
 * model needs to call the tool. zod's conversion adds two things no model needs, and we drop
 * them here, the one place a tool spec becomes JSON schema:
 * - `$schema` (the draft's URL) on every tool;
 * - the safe-integer bounds (±9007199254740991) that `.int()` brings to every integer without a real bound.
 * Real bounds (`.min(1)`, `.max(60000)`) stay. The same goes for schemas tools bring themselves (MCP).
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
  return jsonSchema(
    () => {
      const raw = source.jsonSchema;
      return isThenable(raw) ? Promise.resolve(raw).then(leanJsonSchema) : leanJsonSchema(raw);
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

/** A copy of `schema` without `$schema` and without the safe-integer bounds, at any depth. */
export function leanJsonSchema(schema: JSONSchema7): JSONSchema7 {
  const { $schema: _dropped, ...rest } = schema;
  return strip(rest) as JSONSchema7;
}

function strip(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(strip);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (SAFE_BOUNDS[key] !== undefined && v === SAFE_BOUNDS[key]) continue;
    // `properties` names the input's fields: a field may be called "maximum"; its schema is still walked.
    out[key] = strip(v);
  }
  return out;
}

function isThenable(value: unknown): value is PromiseLike<JSONSchema7> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}
