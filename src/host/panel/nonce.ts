import { randomBytes } from 'node:crypto';

/** A fresh CSP nonce per render: 32 random bytes, base64url (no characters that need escaping). */
export function createNonce(): string {
  return randomBytes(32).toString('base64url');
}
