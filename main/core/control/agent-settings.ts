import type { AgentSettingsPatch } from '../../shared/control-api.js';
import { ErrorCode } from '../../shared/error-codes.js';
import type { NotificationConfig } from '../../shared/protocol.js';
import { REDACTED } from '../agents/agent-card.js';
import type { LoadedAgent } from '../agents/loaded-agent.js';
import { section, type RawConfig } from '../config/config-writer.js';
import { HostError } from '../host-error.js';
import { findAgent } from '../server/routes/agent-lookup.js';
import type { ControlContext } from './context.js';
import { saveConfig } from './saved-config.js';

export type AgentSettingsDeps = Pick<ControlContext, 'config' | 'layout' | 'registry' | 'runtime' | 'changes'>;

/** `Name: [redacted]`, as the UI was shown it: the value means "keep the stored one". */
function isMasked(header: string): boolean {
  return header.slice(header.indexOf(':') + 1).trim() === REDACTED;
}

/**
 * The webhook the patch asks for, with what the UI cannot know filled in from the stored one: a
 * masked auth header keeps the stored header, an absent signing secret keeps the stored secret
 * (`""` removes it).
 */
function nextNotificationConfig(
  stored: NotificationConfig | undefined,
  patch: NonNullable<AgentSettingsPatch['notification_config']>,
): NotificationConfig {
  const next: NotificationConfig = { endpoint_url: patch.endpoint_url };
  if (patch.auth_header !== undefined) {
    if (!isMasked(patch.auth_header)) next.auth_header = patch.auth_header;
    else if (stored?.auth_header !== undefined) next.auth_header = stored.auth_header;
    else throw new HostError(400, ErrorCode.BAD_REQUEST, 'auth_header is masked, but no auth header is stored to keep');
  }
  const secret = patch.signing_secret === undefined ? stored?.signing_secret : patch.signing_secret;
  if (secret !== undefined && secret !== '') next.signing_secret = secret;
  return next;
}

/**
 * `PATCH /api/agents/{slug}`: saves the agent's settings in config.json (its other keys, and
 * everything else in the file, stay), then applies them to the running host at once: the registry
 * (what the A2A server and the outbox read), the scheduler (more concurrency or re-enabling starts
 * queued tasks now) and the UI's live stream.
 */
export function updateAgentSettings(deps: AgentSettingsDeps, slug: string, patch: AgentSettingsPatch): LoadedAgent {
  const agent = findAgent(deps.registry, slug);
  // Undefined: the webhook is not being changed; `{config: undefined}`: it is being removed.
  const webhook =
    patch.notification_config === undefined
      ? undefined
      : { config: patch.notification_config === null ? undefined : nextNotificationConfig(agent.notificationConfig, patch.notification_config) };

  const saved = saveConfig(deps.layout.config, (raw: RawConfig) => {
    const entry = section(section(raw, 'agents'), slug);
    if (patch.enabled !== undefined) entry['enabled'] = patch.enabled;
    if (patch.concurrency !== undefined) entry['concurrency'] = patch.concurrency;
    if (webhook !== undefined) {
      if (webhook.config === undefined) delete entry['notification_config'];
      else entry['notification_config'] = webhook.config;
    }
  });

  const { registry } = deps;
  if (patch.enabled !== undefined) registry.setEnabled(slug, patch.enabled);
  if (patch.concurrency !== undefined) registry.setConcurrency(slug, patch.concurrency);
  if (webhook !== undefined) registry.setNotificationConfig(slug, webhook.config);
  // The in-memory settings follow the file, for whatever reads them later.
  deps.config.agents[slug] = { ...saved.agents?.[slug] };

  deps.runtime.reschedule(slug);
  deps.changes.emit('agents');
  return agent;
}
