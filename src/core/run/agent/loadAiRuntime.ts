import { shareZodWithLazyBundles } from '../../models/sharedZod';
import type * as aiRuntime from './aiRuntime';

export type AiRuntime = typeof aiRuntime;

let runtime: Promise<AiRuntime> | undefined;

shareZodWithLazyBundles();

/** The ai SDK's run machinery, loaded once, by the first run (its own bundle, which takes our zod). */
export const loadAiRuntime = (): Promise<AiRuntime> => (runtime ??= import('./aiRuntime'));
