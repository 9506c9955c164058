import type { BuildOptions } from 'esbuild';

export type LazyBundleName =
  | 'aiSdk'
  | 'sandbox'
  | 'bashParser'
  | 'modelClients'
  | 'mcp'
  | 'acp'
  | 'acpAgent'
  | 'htmlToMarkdown'
  | 'yaml'
  | 'webFetch'
  | 'minimatch'
  | 'telemetry';
export type BundleName = 'extension' | 'engine' | 'agentClient' | 'server' | 'cli' | 'cliMain' | LazyBundleName | 'webview' | 'webviewCss';
/** `cliOnly`: loaded by the CLI alone, so the extension's package leaves it out. */
export const LAZY_BUNDLES: Record<
  LazyBundleName,
  { entry: string; module: RegExp; zodFromHost?: boolean; keepsImport?: boolean; cliOnly?: boolean }
>;
export const SIZE_BUDGETS_KB: Record<Exclude<BundleName, 'webviewCss'>, number>;
export function overBudget(outputs: Record<string, { bytes: number }>): string[];
export const RUNTIME_ASSETS: { from: string; to: string }[];
export function bundleOptions(options?: { production?: boolean }): Record<BundleName, BuildOptions>;
export function copyRuntimeAssets(outdir: string): void;
export function buildCli(outdir: string): Promise<void>;
