/**
 * The host's records in the shapes of main/shared/control-api.ts. Optional fields are left out
 * rather than sent as null, as the contract's `?:` says.
 */
import type { AgentInfo, DeliveryAttempt, DeliverySummary, TaskSummary } from '../../shared/control-api.js';
import { buildAgentCard, publicNotificationConfig } from '../agents/agent-card.js';
import type { LoadedAgent } from '../agents/loaded-agent.js';
import type { Delivery, DeliveryAttempt as StoredAttempt } from '../notify/delivery-types.js';
import type { TaskSummaryRow } from '../store/task-queries.js';

/** An agent's base URL on the A2A server (`a2aUrl` is where this machine reaches it). */
export function a2aAgentUrl(a2aUrl: string, slug: string): string {
  return `${a2aUrl}/agents/${encodeURIComponent(slug)}`;
}

export function toTaskSummary(row: TaskSummaryRow): TaskSummary {
  const summary: TaskSummary = {
    task_id: row.task_id,
    agent_slug: row.agent_slug,
    status: row.status,
    created_at: row.created_at,
    updated_at: row.updated_at,
    input_preview: row.input_preview,
  };
  if (row.prompt !== null && row.status === 'INPUT_REQUIRED') summary.prompt = row.prompt;
  if (row.error_code !== null) summary.error_code = row.error_code;
  return summary;
}

export function toDeliverySummary(delivery: Delivery): DeliverySummary {
  const summary: DeliverySummary = {
    id: delivery.id,
    task_id: delivery.task_id,
    endpoint_url: delivery.endpoint_url,
    webhook_id: delivery.webhook_id,
    status: delivery.task_status,
    state: delivery.state,
    attempts: delivery.attempts,
    created_at: delivery.created_at,
  };
  if (delivery.next_attempt_at !== null) summary.next_attempt_at = delivery.next_attempt_at;
  if (delivery.last_status_code !== null) summary.last_status_code = delivery.last_status_code;
  if (delivery.last_error !== null) summary.last_error = delivery.last_error;
  if (delivery.delivered_at !== null) summary.delivered_at = delivery.delivered_at;
  return summary;
}

export function toDeliveryAttempt(stored: StoredAttempt): DeliveryAttempt {
  const attempt: DeliveryAttempt = { attempt: stored.attempt, started_at: stored.started_at };
  if (stored.duration_ms !== null) attempt.duration_ms = stored.duration_ms;
  if (stored.status_code !== null) attempt.status_code = stored.status_code;
  if (stored.error !== null) attempt.error = stored.error;
  return attempt;
}

export interface AgentStats {
  running: number;
  queued: number;
}

export function toAgentInfo(agent: LoadedAgent, a2aUrl: string, stats: AgentStats): AgentInfo {
  const { manifest } = agent;
  const baseUrl = a2aAgentUrl(a2aUrl, agent.slug);
  const info: AgentInfo = {
    slug: agent.slug,
    display_name: manifest.display_name,
    description: manifest.description,
    agent_id: agent.agentId,
    version: manifest.version,
    source: agent.source,
    dir: agent.dir,
    enabled: agent.enabled,
    concurrency: agent.concurrency,
    manifest_concurrency: manifest.concurrency ?? 1,
    rerun_safe: manifest.rerun_safe === true,
    base_url: baseUrl,
    card_url: `${baseUrl}/agent-card.json`,
    card: buildAgentCard(agent),
    running: stats.running,
    queued: stats.queued,
  };
  if (agent.notificationConfig) info.notification_config = publicNotificationConfig(agent.notificationConfig);
  return info;
}
