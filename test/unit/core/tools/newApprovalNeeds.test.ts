import { describe, expect, it } from 'vitest';
import { decideApproval } from '../../../../src/core/access/approvals/approvalPolicy';
import type { ApprovalMode } from '../../../../src/core/config/settings/engineSettings';

const settings = (mode: ApprovalMode) => ({ mode, root: '/w', autoApproveCommands: [] });

describe('approval of fetches, MCP tools and workspace-declared servers', () => {
  it('a fetch asks in ask and autoEdit unless the host is trusted; trust lets it through', async () => {
    const need = { kind: 'network', url: 'https://example.com/', trustedHost: false } as const;
    expect(await decideApproval(need, settings('ask'))).toEqual({
      ask: true,
      reason: 'Fetches https://example.com/ (not one of your subagents.trustedDomains).',
    });
    expect((await decideApproval(need, settings('autoEdit'))).ask).toBe(true);
    expect((await decideApproval(need, settings('trust'))).ask).toBe(false);
    expect((await decideApproval({ ...need, trustedHost: true }, settings('ask'))).ask).toBe(false);
  });

  it('a tool of another program asks in ask and autoEdit; a server the workspace declares asks in every mode', async () => {
    for (const mode of ['ask', 'autoEdit'] as const)
      expect(await decideApproval({ kind: 'external', reason: 'r' }, settings(mode))).toEqual({ ask: true, reason: 'r' });
    expect((await decideApproval({ kind: 'external', reason: 'r' }, settings('trust'))).ask).toBe(false);
    expect((await decideApproval({ kind: 'workspaceCode', reason: 'w' }, settings('trust'))).ask).toBe(true);
  });
});
