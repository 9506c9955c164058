import * as zodV4 from 'zod/v4';
import * as zodV4Core from 'zod/v4/core';
import en from 'zod/v4/locales/en.js';

/** Where the bundles that load the vendors' clients leave their zod for them (see zodFromHost in scripts/bundles.mjs). */
export const SHARED_ZOD = Symbol.for('subagents.sharedZod');

/**
 * Leaves this bundle's zod where the vendors' clients (dist/modelClients.js) take it: they carry no
 * copy of their own (about 145 KB, and the construction of its schemas again on the first vendor
 * call), and their schemas are built by the same zod as ours. Called when the loader of their
 * bundle loads, so any bundle of ours that can load them has left it before.
 */
export function shareZodWithVendorClients(): void {
  const global = globalThis as { [SHARED_ZOD]?: Record<string, unknown> };
  // Each as the module it stands for; the locale is imported for its default export.
  global[SHARED_ZOD] ??= { 'zod/v4': zodV4, 'zod/v4/core': zodV4Core, 'zod/v4/locales/en.js': { __esModule: true, default: en } };
}
