import type { FastifyPluginAsync } from 'fastify';
import type { AgentCard, AgentListing } from '../../../shared/protocol.js';
import type { AgentDirectory, LoadedAgent } from '../../agents/loaded-agent.js';
import { agentCardSchema, agentListSchema, agentParamsSchema, errorResponses } from '../schemas.js';
import { agentBaseUrl } from '../urls.js';
import { findEnabledAgent } from './agent-lookup.js';

export interface AgentRoutesOptions {
  agents: AgentDirectory;
  cardFor: (agent: LoadedAgent) => AgentCard;
}

interface AgentParams {
  slug: string;
}

/** `GET /agents` (the enabled agents) and each agent's card, at both of its addresses. */
export const agentRoutes: FastifyPluginAsync<AgentRoutesOptions> = async (app, { agents, cardFor }) => {
  app.get(
    '/agents',
    { schema: { response: { 200: agentListSchema, ...errorResponses() } } },
    async (request) => {
      const listing: AgentListing[] = agents
        .list()
        .filter((agent) => agent.enabled)
        .map((agent) => {
          const url = agentBaseUrl(request, agent.slug);
          return {
            slug: agent.slug,
            agent_id: agent.agentId,
            display_name: agent.manifest.display_name,
            url,
            card_url: `${url}/agent-card.json`,
          };
        });
      return { agents: listing };
    },
  );

  const cardRoute = {
    schema: { params: agentParamsSchema, response: { 200: agentCardSchema, ...errorResponses(404) } },
  };
  const card = async (request: { params: AgentParams }): Promise<AgentCard> =>
    cardFor(findEnabledAgent(agents, request.params.slug));
  app.get<{ Params: AgentParams }>('/agents/:slug/agent-card.json', cardRoute, card);
  app.get<{ Params: AgentParams }>('/agents/:slug/.well-known/agent-card.json', cardRoute, card);
};
