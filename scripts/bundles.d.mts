import type { BuildOptions } from 'esbuild';

export type BundleName = 'extension' | 'engine' | 'agentClient' | 'server' | 'cli' | 'sandbox' | 'bashParser' | 'webview' | 'webviewCss';
export const LAZY_BUNDLES: Record<'sandbox' | 'bashParser', { entry: string; module: RegExp }>;
export const RUNTIME_ASSETS: { from: string; to: string }[];
export function bundleOptions(options?: { production?: boolean }): Record<BundleName, BuildOptions>;
export function copyRuntimeAssets(outdir: string): void;
export function buildCli(outdir: string): Promise<void>;
