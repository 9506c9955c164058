/**
 * Files that may hold secrets by their name: environment files, private keys and certificates,
 * SSH keys. Reading one asks in `ask` and `autoEdit` (approvalPolicy.ts), and search_text leaves
 * them out there. Judged on the file name, ignoring letter case.
 */

/** SSH key files as ssh-keygen names them (id_rsa, id_ed25519_sk, id_ecdsa.pub), not source files such as id_generator.ts. */
const SSH_KEY = /^id_[a-z0-9_]+(\.pub)?$/;

/** Why this workspace-relative file may hold secrets, or undefined. */
export function secretFileReason(rel: string): string | undefined {
  // The last segment (trailing slashes aside), cut without splitting the path: search_text asks this of every file it visits.
  let end = rel.length;
  while (end > 0 && rel.charCodeAt(end - 1) === 0x2f) end--;
  const name = rel.slice(rel.lastIndexOf('/', end - 1) + 1, end).toLowerCase();
  if (!name) return undefined;
  if (name.startsWith('.env')) return 'an environment file';
  if (name.endsWith('.pem')) return 'a certificate or private key (.pem)';
  if (name.endsWith('.key')) return 'a private key (.key)';
  if (SSH_KEY.test(name)) return 'an SSH key';
  return undefined;
}
