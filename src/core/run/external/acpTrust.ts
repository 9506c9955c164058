import type { AcpAgent, Profile } from '../../config/profiles/profile';
import { PRODUCT_KEY_VARIABLES } from '../../config/mcp/withheldKeys';

/**
 * Who declared an ACP agent decides whether it starts as declared. One from the user (their
 * settings, their home agent folders) does; one the workspace declared (its settings, its agent
 * files) is a program a repository chose, run as the user outside our sandbox: it starts only with
 * the user's consent (acpConsent.ts), and never gets our API keys.
 */
export function declaredByUser(profile: Profile): boolean {
  return profile.source === 'user settings' || profile.source.startsWith('~/');
}

const REFERENCE = /^\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}$/;

/**
 * The agent's environment: the user's (without our API keys), then the profile's `env`. A value
 * `${env:NAME}` is the user's NAME; our keys are given only to an agent the user declared.
 */
export function acpEnvironment(
  profile: Profile,
  acp: AcpAgent,
  env: Readonly<Record<string, string | undefined>>,
): { env: Record<string, string> } | { error: string } {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (value !== undefined && !isKeyVariable(name)) out[name] = value;
  for (const [name, value] of Object.entries(acp.env)) {
    const referred = REFERENCE.exec(value)?.[1];
    const keys = [name, referred].filter((n): n is string => n !== undefined && isKeyVariable(n));
    if (keys.length > 0 && !declaredByUser(profile))
      return {
        error: `${profile.source} gives the "${profile.name}" agent ${keys.join(', ')}, an API key this product holds, which is never given to an agent the workspace declared. Remove it from its env, or declare the agent in your user settings (subagents.agents) if you trust it with the key.`,
      };
    out[name] = referred === undefined ? value : (env[referred] ?? '');
  }
  return { env: out };
}

function isKeyVariable(name: string): boolean {
  return PRODUCT_KEY_VARIABLES.some((key) => key.toLowerCase() === name.toLowerCase());
}
