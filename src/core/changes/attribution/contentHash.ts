import { createHash } from 'node:crypto';

/** A file's content hash: sha-256 of its bytes in hex, the name of its snapshot. Text counts as its UTF-8 bytes. */
export function contentHash(content: string | Uint8Array): string {
  return createHash('sha256').update(content).digest('hex');
}
