/**
 * A request the ACP server refuses, with the JSON-RPC error code the client gets and a message
 * that says what is wrong and what to do (agentTransport.ts makes it the SDK's RequestError).
 */
export class AcpRefusal extends Error {
  override readonly name = 'AcpRefusal';
  constructor(
    /** -32602 invalid params, -32002 resource not found, -32600 invalid request, -32603 internal error. */
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * By its name and code, not instanceof: the transport is a bundle of its own (acpAgent.js) with
 * its own copy of this class.
 */
export function refusalOf(error: unknown): { code: number; message: string } | undefined {
  if (!(error instanceof Error) || error.name !== 'AcpRefusal') return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'number' ? { code, message: error.message } : undefined;
}
