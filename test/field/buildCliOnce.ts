import type { TestProject } from 'vitest/node';
import { buildCliForTest } from '../unit/cli/cliHarness';

declare module 'vitest' {
  export interface ProvidedContext {
    /** dist/cli.js built from the current sources, once for every field test file. */
    fieldCli: string;
  }
}

/** The field project's global setup: the CLI is built once, and removed after the last file. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const built = await buildCliForTest();
  project.provide('fieldCli', built.path);
  return () => built.dispose();
}
