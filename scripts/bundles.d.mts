import type { BuildOptions } from 'esbuild';

export type BundleName = 'extension' | 'engine' | 'cli' | 'webview';
export function bundleOptions(options?: { production?: boolean }): Record<BundleName, BuildOptions>;
