import { z } from 'zod';
import en from 'zod/v4/locales/en.js';
import * as zodMini from 'zod/v4/mini';

/** Where the bundles that load our lazy bundles leave their zod for them (see zodFromHost in scripts/bundles.mjs). */
export const SHARED_ZOD = Symbol.for('subagents.sharedZod');

/**
 * Leaves this bundle's zod where our lazy bundles take it (those built with zodFromHost: the ai
 * SDK's run machinery, dist/aiSdk.js, and the vendors' clients, dist/modelClients.js): they carry no
 * copy of their own (about 145 KB, and zod's start-up once more when they load), and their schemas
 * are built by the same zod as ours. Called when the loader of such a bundle loads, so any bundle of
 * ours that can load them has left it before.
 */
export function shareZodWithLazyBundles(): void {
  const global = globalThis as { [SHARED_ZOD]?: Record<string, unknown> };
  // Each as the module it stands for, made of the namespace we import anyway (a namespace import of
  // zod/v4 would add one of its own to engine.js): zod/v4 is zod's API with `z` beside it (copied
  // when a bundle loads, not now), its core is `z.core`, and the locale is imported for its default
  // export. zod/v4/mini, which the ai SDK uses beside the classic API, is its own module on the same
  // core; sharing it costs engine.js its namespace (about 17 KB and half a millisecond of its load).
  let zodV4: object | undefined;
  global[SHARED_ZOD] ??= {
    get 'zod/v4'() {
      return (zodV4 ??= { ...z, z });
    },
    'zod/v4/core': z.core,
    'zod/v4/mini': zodMini,
    'zod/v4/locales/en.js': { __esModule: true, default: en },
  };
}
