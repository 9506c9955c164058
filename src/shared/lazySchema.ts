import { z } from 'zod';

/**
 * A schema built on its first use instead of when its module loads. engine.js runs every module's
 * top level as the panel opens, and each zod object costs its construction there (tens of
 * microseconds while zod's own code is cold), so a schema that only a later step needs (a run's
 * tools, a scripted model's script, an MCP server's declaration, a worktree's manifest) waits for
 * that step. It is zod's `z.lazy`: it parses, infers and turns into JSON schema as the schema it
 * builds, which it builds once.
 */
export function lazySchema<T extends z.ZodType>(build: () => T): z.ZodLazy<T> {
  return z.lazy(build);
}
