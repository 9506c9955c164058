import { acpConsentKey, type AcpConsent } from '../core/config/acp/acpConsentKey';
import type { ProfileSet } from '../core/config/profiles/profile';
import { UsageError } from './cliError';

/**
 * `--allow-acp NAME` allows the declaration NAME has as the CLI starts (acpConsentKey: its command,
 * arguments, environment, where it was written, and the bytes of the workspace scripts it names),
 * not the name: a script rewritten during the run, or a declaration read later, is not allowed.
 * A name with no external agent, or one declared differently in two places, is exit 2 naming them.
 */
export function cliAcpConsent(profiles: ProfileSet, root: string, allowed: readonly string[]): AcpConsent {
  const agents = [...profiles.profiles.values()].filter((p) => p.acp);
  const allowedKeys: string[] = [];
  for (const name of allowed) {
    const profile = agents.find((p) => p.name === name);
    if (!profile) {
      const declared = agents.map((p) => p.name).join(', ') || 'none';
      throw new UsageError(
        `--allow-acp ${name}: no external agent (a profile with "acp") of that name is declared here (declared: ${declared}).`,
      );
    }
    if (profile.acpConflict)
      throw new UsageError(
        `--allow-acp ${name}: the external agent "${name}" is declared differently in ${profile.acpConflict.join(' and ')}, so the name does not say which one. Remove or rename all but one of them.`,
      );
    allowedKeys.push(acpConsentKey(root, { ...profile, acp: profile.acp! }));
  }
  return { allowedKeys };
}
