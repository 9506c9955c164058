import { createHash } from 'node:crypto';
import type { AcpAgent, Profile } from '../profiles/profile';
import { scriptsDigest, workspaceScripts } from '../scripts/workspaceScripts';

/**
 * What consent to a workspace-declared ACP agent binds to: the declaration the user saw (its name,
 * command, arguments, environment as written) and where it was written, and the bytes of the
 * workspace files these name (`./agent.sh`, `node scripts/agent.js`, `NODE_OPTIONS=--require ./x.js`).
 * Another file declaring the same name, a changed argument or environment value, or a script
 * rewritten since (by an agent's command, say) is another question.
 */
export function acpConsentKey(root: string, profile: Pick<Profile, 'name' | 'source'> & { acp: AcpAgent }): string {
  const { acp } = profile;
  const env = Object.entries(acp.env).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const words = [acp.command, ...acp.args, ...env.map(([, value]) => value)];
  return createHash('sha256')
    .update(JSON.stringify([profile.name, profile.source, acp.command, acp.args, env]))
    .update(scriptsDigest(root, workspaceScripts(root, words)))
    .digest('hex')
    .slice(0, 32);
}

/** Whether two declarations start the same program the same way (where they were written aside). */
export function sameAcpDeclaration(a: AcpAgent, b: AcpAgent): boolean {
  const shape = (x: AcpAgent) => JSON.stringify([x.command, x.args, Object.entries(x.env).sort(([p], [q]) => (p < q ? -1 : 1))]);
  return shape(a) === shape(b);
}

/** Remembers the declarations the user allowed (the extension: per workspace, outside its files). */
export interface AcpConsentMemory {
  isApproved(key: string): boolean;
  remember(key: string): void;
}

/** How a host lets workspace-declared ACP agents start. */
export interface AcpConsent {
  /** Declarations allowed up front, by acpConsentKey (the CLI's --allow-acp NAME, bound to what NAME was at start). */
  allowedKeys?: readonly string[];
  /** Answers remembered from earlier prompts (the extension). */
  memory?: AcpConsentMemory;
}
