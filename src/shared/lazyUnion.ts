import { z } from 'zod';

type Members = Record<string, () => z.ZodObject>;

/** An object's named fields, without the index signature zod gives an empty object (`Record<string, never>`). */
type Fields<O> = { [P in keyof O as string extends P ? never : P]: O[P] };

/** The value a member parses to, for any member: its own fields and its kind under `K`. */
export type LazyUnionOutput<K extends string, M extends Members> = {
  [T in keyof M & string]: Fields<z.output<ReturnType<M[T]>>> & { [P in K]: T };
}[keyof M & string];

export interface LazyUnion<K extends string, M extends Members> {
  safeParse(raw: unknown): z.ZodSafeParseResult<LazyUnionOutput<K, M>>;
}

/**
 * A discriminated union whose members are built on first use, each when the first value of its
 * kind comes. zod's `discriminatedUnion` builds every member when its module loads: for the
 * panel's messages, some twenty objects with their checks, as engine.js loads, where opening the
 * panel sends one or two kinds. A member is named by its kind and gives only its other fields; the
 * kind's literal is added here, so a name and its literal cannot disagree. A value of no member's
 * kind fails with the kinds there are.
 */
export function lazyUnion<K extends string, M extends Members>(key: K, members: M): LazyUnion<K, M> {
  const built = new Map<string, z.ZodType>();
  let kindCheck: z.ZodType | undefined;
  return {
    safeParse(raw) {
      const kind = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>)[key] : undefined;
      if (typeof kind === 'string' && Object.hasOwn(members, kind)) {
        let schema = built.get(kind);
        if (!schema) built.set(kind, (schema = members[kind]!().extend({ [key]: z.literal(kind) })));
        return schema.safeParse(raw) as z.ZodSafeParseResult<LazyUnionOutput<K, M>>;
      }
      kindCheck ??= z.object({ [key]: z.enum(Object.keys(members) as [string, ...string[]]) });
      // A value of no member's kind always fails this check; its issues say which kinds there are.
      const { error } = kindCheck.safeParse(raw);
      return { success: false, error: (error ?? new z.ZodError([])) as z.ZodError<LazyUnionOutput<K, M>> };
    },
  };
}
