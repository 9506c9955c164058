// The vendors' clients (OpenAI, Anthropic, OpenAI-compatible servers): a lazily loaded bundle of
// their own (scripts/bundles.mjs), about 400 KB that a scripted or editor model never needs. Only
// deferredModel.ts's loader imports this file.
export { createAnthropic } from '@ai-sdk/anthropic';
export { createOpenAI } from '@ai-sdk/openai';
export { createOpenAICompatible } from '@ai-sdk/openai-compatible';
export { providerFetch } from './providerFetch';
