export interface EngineWarnings {
  line(raw: string): string | undefined;
  packages(): { name: string; node: string }[];
  summary(nodeVersion: string): string | undefined;
}
export function engineWarnings(): EngineWarnings;
export function engineSummary(packages: { name: string; node: string }[], nodeVersion: string): string | undefined;
export function runNpm(
  args: string[],
  options?: { cwd?: string; out?: NodeJS.WritableStream; err?: NodeJS.WritableStream; nodeVersion?: string },
): Promise<number>;
