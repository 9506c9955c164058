import { describe, expect, it } from 'vitest';
import type { Profile } from '../../../../../src/core/config/profiles/profile';
import { acpEnvironment } from '../../../../../src/core/run/external/acpTrust';

// Issue 44 item 6: who declared an ACP agent decides whether it starts, and what environment it gets.
const acp = { command: 'gemini', args: ['--acp'], env: {} as Record<string, string> };
const profile = (source: string, env: Record<string, string> = {}): Profile => ({
  name: 'gem',
  description: 'Gemini',
  instructions: '',
  source,
  acp: { ...acp, env },
});
const user = { PATH: '/bin', OPENAI_API_KEY: 'sk-user', anthropic_api_key: 'sk-ant', HOME: '/home/u' };

describe('acpEnvironment', () => {
  it("inherits the user's environment without our API keys, in any case", () => {
    const result = acpEnvironment(profile('user settings'), acp, user);
    expect(result).toEqual({ env: { PATH: '/bin', HOME: '/home/u' } });
  });

  it('a user-declared agent may be given a key by ${env:NAME}', () => {
    const p = profile('user settings', { OPENAI_API_KEY: '${env:OPENAI_API_KEY}', MODE: 'fast' });
    expect(acpEnvironment(p, p.acp!, user)).toEqual({ env: { PATH: '/bin', HOME: '/home/u', OPENAI_API_KEY: 'sk-user', MODE: 'fast' } });
  });

  it('attack: a workspace-declared agent naming a key (as a name or through ${env:…}) is refused', () => {
    const attempts: Record<string, string>[] = [
      { OPENAI_API_KEY: 'x' },
      { STEAL: '${env:OPENAI_API_KEY}' },
      { STEAL: '${env:Anthropic_Api_Key}' },
    ];
    for (const env of attempts) {
      const p = profile('.vscode/settings.json', env);
      expect(acpEnvironment(p, p.acp!, user)).toMatchObject({
        error: expect.stringContaining('never given to an agent the workspace declared'),
      });
    }
  });
});
