import type { LanguageModelV4 } from '@ai-sdk/provider';
import { shareZodWithLazyBundles } from './sharedZod';
import type * as vendorClients from './vendorClients';

export type VendorClients = typeof vendorClients;

let clients: Promise<VendorClients> | undefined;

shareZodWithLazyBundles();

/** The vendors' clients, loaded once on the first call of a vendor's model (their own bundle). */
export const loadVendorClients = (): Promise<VendorClients> => (clients ??= import('./vendorClients'));

/** `make`, called once: every later call gets the first call's promise. */
export function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => (made ??= make());
}

/**
 * A model whose client is made on its first call, so that resolving a spec stays synchronous while
 * the client's code loads only when a run uses it. `provider` is the name the client's model gives
 * itself (a test compares them), so slots and errors read the same before and after the load.
 */
export function deferredModel(provider: string, modelId: string, make: () => Promise<LanguageModelV4>): LanguageModelV4 {
  const model = once(make);
  return {
    specificationVersion: 'v4',
    provider,
    modelId,
    get supportedUrls() {
      return model().then((m) => m.supportedUrls);
    },
    doGenerate: async (options) => (await model()).doGenerate(options),
    doStream: async (options) => (await model()).doStream(options),
  };
}
