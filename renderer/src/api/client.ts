/**
 * The typed control API client: one method per endpoint of main/shared/control-api.ts. The store
 * takes a ControlApi, so unit tests can hand it an in-test fake instead of HTTP.
 */
import type {
  AgentInfo,
  AgentList,
  AgentSettingsPatch,
  ApiTokenInfo,
  ArtifactListPage,
  CreatedApiTokenInfo,
  DeliveryAttempt,
  DeliveryListPage,
  DeliveryState,
  InboxList,
  InboxQuery,
  IntakeState,
  SessionInfo,
  SettingsInfo,
  SettingsPatch,
  TaskDetail,
  TaskEventsPage,
  TaskListPage,
  TaskListQuery,
} from '../../../main/shared/control-api.js';
import type { JsonObject, Task } from '../../../main/shared/protocol.js';
import { ApiError, BAD_RESPONSE, Http, queryString, segment, type HttpOptions } from './http.js';

export interface ArtifactQuery {
  agent?: string;
  task?: string;
  limit?: number;
  cursor?: string;
}
export interface DeliveryQuery {
  task?: string;
  state?: DeliveryState;
  limit?: number;
  cursor?: string;
}
export interface EventsQuery {
  before?: number;
  after?: number;
  limit?: number;
}

export interface ControlApi {
  getSession(): Promise<SessionInfo>;
  createSession(token: string): Promise<SessionInfo>;
  listTasks(query: TaskListQuery): Promise<TaskListPage>;
  getTask(taskId: string): Promise<TaskDetail>;
  getTaskEvents(taskId: string, query: EventsQuery): Promise<TaskEventsPage>;
  answerTask(taskId: string, input: JsonObject): Promise<Task>;
  cancelTask(taskId: string): Promise<Task>;
  createTask(slug: string, input: JsonObject): Promise<Task>;
  getInbox(query: InboxQuery): Promise<InboxList>;
  listArtifacts(query: ArtifactQuery): Promise<ArtifactListPage>;
  listAgents(): Promise<AgentList>;
  patchAgent(slug: string, patch: AgentSettingsPatch): Promise<AgentInfo | undefined>;
  listDeliveries(query: DeliveryQuery): Promise<DeliveryListPage>;
  getDeliveryAttempts(deliveryId: number): Promise<DeliveryAttempt[]>;
  redeliver(deliveryId: number): Promise<void>;
  listTokens(): Promise<ApiTokenInfo[]>;
  createToken(name: string): Promise<CreatedApiTokenInfo>;
  revokeToken(tokenId: string): Promise<void>;
  getSettings(): Promise<SettingsInfo>;
  patchSettings(patch: SettingsPatch): Promise<SettingsInfo>;
  getIntake(): Promise<IntakeState>;
  /** `PUT /api/intake`: pauses or resumes taking new tasks; answers with the new state. */
  setIntake(paused: boolean): Promise<IntakeState>;
}

export function createHttpApi(options: HttpOptions = {}): ControlApi {
  const http = new Http(options);
  const get = <T>(path: string): Promise<T> => http.request<T>('GET', path);
  return {
    getSession: () => get<SessionInfo>('/api/session'),
    async createSession(token) {
      await http.request<unknown>('POST', '/api/session', { token });
      // The POST's body is not part of the contract; the GET is, so ask it what we now have.
      return get<SessionInfo>('/api/session');
    },
    listTasks: (q) =>
      get<TaskListPage>(`/api/tasks${queryString({ status: q.status, agent: q.agent, q: q.q, limit: q.limit, cursor: q.cursor })}`),
    getTask: (id) => get<TaskDetail>(`/api/tasks/${segment(id)}`),
    getTaskEvents: (id, q) => get<TaskEventsPage>(`/api/tasks/${segment(id)}/events${queryString({ before: q.before, after: q.after, limit: q.limit })}`),
    answerTask: (id, input) => http.request<Task>('POST', `/api/tasks/${segment(id)}/answer`, { input }),
    cancelTask: (id) => http.request<Task>('POST', `/api/tasks/${segment(id)}/cancel`),
    createTask: (slug, input) => http.request<Task>('POST', `/api/agents/${segment(slug)}/tasks`, { input }),
    getInbox: (q) => get<InboxList>(`/api/inbox${queryString({ limit: q.limit, cursor: q.cursor })}`),
    listArtifacts: (q) => get<ArtifactListPage>(`/api/artifacts${queryString({ agent: q.agent, task: q.task, limit: q.limit, cursor: q.cursor })}`),
    listAgents: () => get<AgentList>('/api/agents'),
    patchAgent: (slug, patch) => http.request<AgentInfo | undefined>('PATCH', `/api/agents/${segment(slug)}`, patch),
    listDeliveries: (q) =>
      get<DeliveryListPage>(`/api/deliveries${queryString({ task: q.task, state: q.state, limit: q.limit, cursor: q.cursor })}`),
    getDeliveryAttempts: async (id) => listIn<DeliveryAttempt>(await get<unknown>(`/api/deliveries/${id}/attempts`), ['attempts']),
    redeliver: async (id) => {
      await http.request<unknown>('POST', `/api/deliveries/${id}/redeliver`);
    },
    listTokens: async () => listIn<ApiTokenInfo>(await get<unknown>('/api/tokens'), ['tokens']),
    createToken: (name) => http.request<CreatedApiTokenInfo>('POST', '/api/tokens', { name }),
    revokeToken: async (id) => {
      await http.request<unknown>('DELETE', `/api/tokens/${segment(id)}`);
    },
    getSettings: () => get<SettingsInfo>('/api/settings'),
    patchSettings: (patch) => http.request<SettingsInfo>('PATCH', '/api/settings', patch),
    getIntake: () => get<IntakeState>('/api/intake'),
    setIntake: (paused) => http.request<IntakeState>('PUT', '/api/intake', { paused }),
  };
}

/**
 * The contract names the item types of these lists but not their envelope: accept a bare array
 * or an object holding it under one of the expected keys.
 */
function listIn<T>(body: unknown, keys: readonly string[]): T[] {
  if (Array.isArray(body)) return body as T[];
  if (typeof body === 'object' && body !== null) {
    for (const key of keys) {
      const value = (body as Record<string, unknown>)[key];
      if (Array.isArray(value)) return value as T[];
    }
  }
  throw new ApiError(200, BAD_RESPONSE, `Unexpected answer: expected a list of ${keys[0]}.`);
}
