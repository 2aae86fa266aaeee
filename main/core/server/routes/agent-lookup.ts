import { ErrorCode } from '../../../shared/error-codes.js';
import type { AgentDirectory, LoadedAgent } from '../../agents/loaded-agent.js';
import { HostError } from '../../host-error.js';

/** The agent at `/agents/{slug}`, enabled or not; 404 AGENT_NOT_FOUND when there is none. */
export function findAgent(agents: AgentDirectory, slug: string): LoadedAgent {
  const agent = agents.get(slug);
  if (!agent) throw new HostError(404, ErrorCode.AGENT_NOT_FOUND, `no agent ${slug} on this host`);
  return agent;
}

/**
 * The agent, which must also be enabled (for its card and for new tasks): 503, as a disabled
 * agent is a temporary state the person at the desk can change.
 */
export function findEnabledAgent(agents: AgentDirectory, slug: string): LoadedAgent {
  const agent = findAgent(agents, slug);
  if (!agent.enabled) throw new HostError(503, ErrorCode.AGENT_DISABLED, `agent ${slug} is disabled on this host`);
  return agent;
}
