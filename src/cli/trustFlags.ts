import type { SettingsLayer } from '../core/config/settings/readEngineSettings';
import type { TrustFlags } from './cliArgs';

/**
 * The CLI's flags for what raises trust, as a settings layer of the user's own: the one settings
 * reader checks them like any value (a bad one is exit 2), and no workspace layer can set them.
 */
export function trustFlagsLayer(flags: TrustFlags | undefined): SettingsLayer {
  const values: Record<string, unknown> = {};
  if (flags?.approval !== undefined) values.approval = flags.approval;
  if (flags?.allowCommands.length) values.autoApproveCommands = flags.allowCommands;
  if (flags?.trustedDomains.length) values.trustedDomains = flags.trustedDomains;
  if (flags?.sandbox !== undefined) values['sandbox.mode'] = flags.sandbox;
  if (flags?.sandboxAllowHosts.length) values['sandbox.allowedHosts'] = flags.sandboxAllowHosts;
  if (flags?.userHooksOutside) values['sandbox.userHooksOutside'] = true;
  if (flags?.commandEnvExclude.length) values['commandEnv.exclude'] = flags.commandEnvExclude;
  if (flags?.otlpEndpoint !== undefined) values['telemetry.otlpEndpoint'] = flags.otlpEndpoint;
  if (flags?.otlpRecordContent) values['telemetry.recordContent'] = true;
  return { scope: 'user', source: 'the command line', values };
}
