// Stands in for @ai-sdk/gateway in our bundles (see esbuild.mjs). `ai` imports the gateway for
// string model ids ("openai/gpt-4o" resolved through Vercel's gateway); we always pass model
// objects, so the real package (90 KB with its OIDC client) would only add weight and a network
// path nobody configured. Anything that reaches it fails with a message that says why.

const unsupported = (): never => {
  throw new Error('Model ids as plain strings (the AI Gateway) are not supported here: use a model spec such as "openai:gpt-4o".');
};

const never = { isInstance: (_error: unknown): boolean => false };

export const GatewayAuthenticationError = never;
export const GatewayError = never;
export const gateway = new Proxy(unsupported, { get: () => unsupported });
export const createGateway = (): typeof gateway => gateway;
