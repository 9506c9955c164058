import { z } from 'zod';

type Members = Record<string, () => z.ZodType>;

/** The value a member parses to, for any member. */
export type LazyUnionOutput<M extends Members> = { [K in keyof M]: z.output<ReturnType<M[K]>> }[keyof M];

export interface LazyUnion<M extends Members> {
  safeParse(raw: unknown): z.ZodSafeParseResult<LazyUnionOutput<M>>;
}

/**
 * A discriminated union whose members are built on first use, each when the first value of its
 * kind comes. zod's `discriminatedUnion` builds every member when its module loads: for the
 * panel's messages, some twenty objects with their checks, as engine.js loads, where opening the
 * panel sends one or two kinds. Each member must give its key as a literal (`{ type:
 * z.literal('ready') }`), so it checks the value's kind as the union would; a value of no member's
 * kind fails with the kinds there are.
 */
export function lazyUnion<M extends Members>(key: string, members: M): LazyUnion<M> {
  const built = new Map<string, z.ZodType>();
  let kindCheck: z.ZodType | undefined;
  return {
    safeParse(raw) {
      const kind = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>)[key] : undefined;
      if (typeof kind === 'string' && Object.hasOwn(members, kind)) {
        let schema = built.get(kind);
        if (!schema) built.set(kind, (schema = members[kind]!()));
        return schema.safeParse(raw) as z.ZodSafeParseResult<LazyUnionOutput<M>>;
      }
      kindCheck ??= z.object({ [key]: z.enum(Object.keys(members) as [string, ...string[]]) });
      // A value of no member's kind always fails this check; its issues say which kinds there are.
      const { error } = kindCheck.safeParse(raw);
      return { success: false, error: (error ?? new z.ZodError([])) as z.ZodError<LazyUnionOutput<M>> };
    },
  };
}
