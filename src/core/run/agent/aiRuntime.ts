// The ai SDK's run machinery (the agent loop's stream and the middleware that hides tools): a
// lazily loaded bundle of its own (aiSdk.js, scripts/bundles.mjs): about 160 KB of engine.js and a
// tenth of its load (compiling it, and the schemas ai builds when it loads), which the panel's first
// request never needs. The first run loads it; only loadAiRuntime.ts imports this file.
export { experimental_streamTextLowMemory as streamTextOnce, isStepCount, NoSuchToolError, wrapLanguageModel } from 'ai';
