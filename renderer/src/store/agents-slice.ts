import type { AgentInfo, AgentSettingsPatch, PluginLoadErrorInfo } from '../../../main/shared/control-api.js';
import type { JsonObject, Task } from '../../../main/shared/protocol.js';
import { errorMessage } from '../api/http.js';
import { createScheduler } from './debounce.js';
import type { LoadStatus, Slice } from './types.js';

export interface AgentsState {
  list: AgentInfo[];
  loadErrors: PluginLoadErrorInfo[];
  status: LoadStatus;
  error?: string;
  requestedAt: number;
  /** The agents view is on screen: its running/queued counts follow task events. */
  watching: boolean;
  /** Task events arrived while nobody watched the counts: refetch when the view opens. */
  stale: boolean;
}

export interface AgentsSlice {
  agents: AgentsState;
  loadAgents(): Promise<void>;
  /**
   * Task statuses changed, so running/queued counts did: refetch soon (a burst of events costs one
   * request) while the agents view is open, or once it opens.
   */
  refreshAgentsSoon(): void;
  watchAgents(on: boolean): void;
  /** Saves settings; rejects with the ApiError so the form can show it beside the fields. */
  patchAgent(slug: string, patch: AgentSettingsPatch): Promise<void>;
  /** Creates a real task ("Try it"); rejects with the ApiError (e.g. INVALID_INPUT with details). */
  createTask(slug: string, input: JsonObject): Promise<Task>;
}

export const agentsSlice: Slice<AgentsSlice> = ({ api, now, debounceMs }) => (set, get) => {
  let generation = 0;
  const schedule = createScheduler(Math.max(debounceMs, debounceMs > 0 ? 1000 : 0));
  const patch = (p: Partial<AgentsState>): void => set((s) => ({ agents: { ...s.agents, ...p } }));

  return {
    agents: { list: [], loadErrors: [], status: 'idle', requestedAt: 0, watching: false, stale: false },

    async loadAgents() {
      const gen = ++generation;
      if (get().agents.status !== 'ready') patch({ status: 'loading' });
      patch({ requestedAt: now(), stale: false });
      try {
        const result = await api.listAgents();
        if (gen !== generation) return;
        patch({ list: result.agents, loadErrors: result.load_errors, status: 'ready', error: undefined });
      } catch (err) {
        if (gen !== generation) return;
        patch({ status: 'error', error: errorMessage(err) });
      }
    },

    refreshAgentsSoon() {
      const { status, watching } = get().agents;
      if (status === 'idle') return;
      if (!watching) {
        patch({ stale: true });
        return;
      }
      schedule('agents', () => void get().loadAgents());
    },

    watchAgents(on) {
      patch({ watching: on });
      if (on && get().agents.stale) void get().loadAgents();
    },

    async patchAgent(slug, p) {
      const updated = await api.patchAgent(slug, p);
      if (updated && typeof updated === 'object' && 'slug' in updated) {
        patch({ list: get().agents.list.map((a) => (a.slug === slug ? updated : a)) });
      } else {
        await get().loadAgents();
      }
    },

    async createTask(slug, input) {
      return api.createTask(slug, input);
    },
  };
};
