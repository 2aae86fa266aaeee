/**
 * The app store against an in-test fake of the control API (this file's only stand-in: the real
 * API is exercised by the browser tests against a running host).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentInfo, AgentList, InboxItem, InboxList, InboxQuery, IntakeState, SessionInfo, TaskDetail, TaskListPage, TaskListQuery } from '../../../main/shared/control-api.js';
import { isDesktopNotification, NOTIFICATION_BODY_MAX, NOTIFICATION_TITLE_MAX } from '../../../main/shared/desktop-bridge.js';
import type { JsonObject, Task, TaskStatus } from '../../../main/shared/protocol.js';
import type { ControlApi } from '../../../renderer/src/api/client.js';
import { ApiError } from '../../../renderer/src/api/http.js';
import { createAppStore, type AppStore } from '../../../renderer/src/store/app-store.js';
import { summaryOf } from '../../../renderer/src/store/task-reducers.js';

function task(n: number, status: TaskStatus = 'WORKING', extra: Partial<Task> = {}): Task {
  const mm = String(n).padStart(2, '0');
  return {
    task_id: `t${n}`,
    agent_id: 'a',
    status,
    input: { n },
    created_at: `2025-01-01T10:${mm}:00.000Z`,
    updated_at: `2025-01-01T11:${mm}:00.000Z`,
    ...extra,
  };
}

interface Deferred<T> {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (err: unknown) => void;
}
function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const flush = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));
const notUsed = (): never => {
  throw new Error('not used by this test');
};

/** A fake API whose list, inbox and answer calls are answered by the test, in any order. */
class FakeApi implements ControlApi {
  taskQueries: TaskListQuery[] = [];
  taskPages: Deferred<TaskListPage>[] = [];
  inboxCalls = 0;
  inbox: InboxItem[] = [];
  inboxQueries: InboxQuery[] = [];
  /** When set, inbox pages are answered by the test (else the whole `inbox` as one page). */
  inboxPages: Deferred<InboxList>[] | undefined;
  agentCalls = 0;
  agents: AgentInfo[] = [];
  answers: { taskId: string; input: JsonObject }[] = [];
  answerResult: () => Promise<Task> = async () => task(1);
  session: () => Promise<SessionInfo> = async () => ({ version: '1', a2a_url: 'http://h', data_dir: '/d', desktop: false });
  sessionTokens: string[] = [];
  /** Task details by id (others answer 404); `taskDetail` overrides, e.g. to answer later. */
  details: Record<string, TaskDetail> = {};
  taskCalls: string[] = [];
  taskDetail: ((taskId: string) => Promise<TaskDetail>) | undefined;
  intake: IntakeState = { paused: false };
  intakeLoads = 0;
  intakeLoad: (() => Promise<IntakeState>) | undefined;
  intakeSets: boolean[] = [];
  intakeSet: ((paused: boolean) => Promise<IntakeState>) | undefined;

  getSession = (): Promise<SessionInfo> => this.session();
  createSession = async (token: string): Promise<SessionInfo> => {
    this.sessionTokens.push(token);
    if (token !== 'good') throw new ApiError(401, 'UNAUTHORIZED', 'unknown token');
    return this.session();
  };
  listTasks = (query: TaskListQuery): Promise<TaskListPage> => {
    this.taskQueries.push(query);
    const d = deferred<TaskListPage>();
    this.taskPages.push(d);
    return d.promise;
  };
  getInbox = async (query: InboxQuery): Promise<InboxList> => {
    this.inboxCalls++;
    this.inboxQueries.push(query);
    if (this.inboxPages) {
      const d = deferred<InboxList>();
      this.inboxPages.push(d);
      return d.promise;
    }
    return { items: this.inbox, total: this.inbox.length };
  };
  listAgents = async (): Promise<AgentList> => {
    this.agentCalls++;
    return { agents: this.agents, load_errors: [] };
  };
  answerTask = async (taskId: string, input: JsonObject): Promise<Task> => {
    this.answers.push({ taskId, input });
    return this.answerResult();
  };
  getTask = async (taskId: string): Promise<TaskDetail> => {
    this.taskCalls.push(taskId);
    if (this.taskDetail) return this.taskDetail(taskId);
    const detail = this.details[taskId];
    if (!detail) throw new ApiError(404, 'TASK_NOT_FOUND', `no task ${taskId}`);
    return detail;
  };
  getIntake = async (): Promise<IntakeState> => {
    this.intakeLoads++;
    return this.intakeLoad ? this.intakeLoad() : this.intake;
  };
  setIntake = async (paused: boolean): Promise<IntakeState> => {
    this.intakeSets.push(paused);
    if (this.intakeSet) return this.intakeSet(paused);
    this.intake = paused ? { paused, paused_at: '2025-01-01T12:00:00.000Z' } : { paused };
    return this.intake;
  };
  getTaskEvents = notUsed;
  cancelTask = notUsed;
  createTask = notUsed;
  listArtifacts = notUsed;
  patchAgent = notUsed;
  listDeliveries = notUsed;
  getDeliveryAttempts = notUsed;
  redeliver = notUsed;
  listTokens = notUsed;
  createToken = notUsed;
  revokeToken = notUsed;
  getSettings = notUsed;
  patchSettings = notUsed;
}

function setup(): { api: FakeApi; store: AppStore } {
  const api = new FakeApi();
  let clock = 1000;
  const store = createAppStore(api, { debounceMs: 0, now: () => clock++ });
  return { api, store };
}

const waiting = (n: number, prompt = `Question ${n}?`): InboxItem => ({
  task: task(n, 'INPUT_REQUIRED', { prompt }),
  agent_slug: 'echo',
  agent_display_name: 'Echo',
});

const statusEvent = (id: number, t: Task, agent = 'echo') => ({ type: 'task' as const, agent_slug: agent, event: { id, task_id: t.task_id, kind: 'status' as const, data: t } });
const answerEvent = (id: number, taskId: string) => ({
  type: 'task' as const,
  agent_slug: 'echo',
  event: { id, task_id: taskId, kind: 'answer' as const, data: { timestamp: '2025-01-01T12:00:00.000Z', input: {} } },
});

describe('answering from the inbox', () => {
  it('removes the task at once and keeps it out after the host accepts', async () => {
    const { api, store } = setup();
    api.inbox = [waiting(2), waiting(1)]; // newest first, as the server answers
    await store.getState().loadInbox();
    expect(store.getState().inbox.items.map((i) => i.task.task_id)).toEqual(['t2', 't1']);

    const sent = store.getState().answerTask('t1', { text: 'yes' });
    expect(store.getState().inbox.items.map((i) => i.task.task_id)).toEqual(['t2']);
    expect(await sent).toBe(true);
    expect(api.answers).toEqual([{ taskId: 't1', input: { text: 'yes' } }]);
    // The stream may still replay the prompt that was just answered: it must not come back.
    store.getState().receive([statusEvent(50, waiting(1).task)]);
    expect(store.getState().inbox.items.map((i) => i.task.task_id)).toEqual(['t2']);
    expect(store.getState().toasts.at(-1)).toMatchObject({ kind: 'success', message: 'Answer sent to Echo.' });
  });

  it('puts the task back with the error and the answer given when the host refuses it', async () => {
    const { api, store } = setup();
    api.inbox = [waiting(1)];
    await store.getState().loadInbox();
    const details = [{ path: '/name', message: 'must be string', keyword: 'type' }];
    api.answerResult = async () => {
      throw new ApiError(400, 'INVALID_ANSWER', 'the answer does not match the prompt schema', details);
    };
    expect(await store.getState().answerTask('t1', { name: 5 })).toBe(false);
    expect(store.getState().inbox.items.map((i) => i.task.task_id)).toEqual(['t1']);
    expect(store.getState().inbox.failures.t1).toMatchObject({ message: 'the answer does not match the prompt schema', details, answer: { name: 5 } });
  });

  it('does not put back a task that is no longer waiting (409)', async () => {
    const { api, store } = setup();
    api.inbox = [waiting(1)];
    await store.getState().loadInbox();
    api.answerResult = async () => {
      throw new ApiError(409, 'INVALID_STATE', 'task is CANCELLED');
    };
    expect(await store.getState().answerTask('t1', { text: 'late' })).toBe(false);
    expect(store.getState().inbox.items).toEqual([]);
    expect(store.getState().inbox.failures).toEqual({});
  });

  it('shows a new question from the same task after it was answered', async () => {
    const { api, store } = setup();
    api.inbox = [waiting(1)];
    await store.getState().loadInbox();
    await store.getState().answerTask('t1', { text: 'a' });
    store.getState().receive([statusEvent(60, task(1, 'WORKING')), statusEvent(61, task(1, 'INPUT_REQUIRED', { prompt: 'Next?', updated_at: '2025-01-01T12:00:00.000Z' }))]);
    expect(store.getState().inbox.items.map((i) => i.task.prompt)).toEqual(['Next?']);
  });
});

describe('the inbox in pages, with a live count', () => {
  /** Waiting tasks t{n} for n from `from` down to `to` (newest first, as the server pages). */
  const range = (from: number, to: number): InboxItem[] => Array.from({ length: from - to + 1 }, (_, k) => waiting(from - k));
  const ids = (store: AppStore): string[] => store.getState().inbox.items.map((i) => i.task.task_id);

  async function loaded(): Promise<{ api: FakeApi; store: AppStore }> {
    const { api, store } = setup();
    api.inboxPages = [];
    void store.getState().loadInbox();
    expect(api.inboxQueries).toEqual([{ limit: 50 }]);
    // 5 waiting in all, 3 per page here: t50..t48 shown, t47 and t46 not loaded.
    api.inboxPages[0]!.resolve({ items: range(50, 48), total: 5, next_cursor: 'c1' });
    await flush();
    return { api, store };
  }

  it('shows the first page with the whole count, and "Load more" appends the next page', async () => {
    const { api, store } = await loaded();
    expect(ids(store)).toEqual(['t50', 't49', 't48']);
    expect(store.getState().inbox).toMatchObject({ total: 5, nextCursor: 'c1', status: 'ready' });
    void store.getState().loadMoreInbox();
    void store.getState().loadMoreInbox(); // one request at a time
    expect(api.inboxQueries.slice(1)).toEqual([{ limit: 50, cursor: 'c1' }]);
    api.inboxPages![1]!.resolve({ items: range(47, 46), total: 5 });
    await flush();
    expect(ids(store)).toEqual(['t50', 't49', 't48', 't47', 't46']);
    expect(store.getState().inbox).toMatchObject({ total: 5, nextCursor: undefined, loadingMore: false });
  });

  it('counts a task entering INPUT_REQUIRED (on top) and one leaving, loaded or not', async () => {
    const { store } = await loaded();
    // A new question, and an old task not loaded that starts waiting again: both on top.
    store.getState().receive([statusEvent(100, task(60, 'INPUT_REQUIRED', { prompt: 'New?' })), statusEvent(101, task(10, 'INPUT_REQUIRED', { prompt: 'Old?' }))]);
    expect(ids(store)).toEqual(['t10', 't60', 't50', 't49', 't48']);
    expect(store.getState().inbox.total).toBe(7);
    // A loaded card answered elsewhere; an unloaded one answered elsewhere (its answer event says so).
    store.getState().receive([statusEvent(102, task(49, 'WORKING')), answerEvent(103, 't47'), statusEvent(104, task(47, 'WORKING'))]);
    expect(ids(store)).toEqual(['t10', 't60', 't50', 't48']);
    expect(store.getState().inbox.total).toBe(5);
    // Tasks that were never waiting: a new one starting, an old queued one starting, one finishing.
    store.getState().receive([statusEvent(105, task(61, 'WORKING')), statusEvent(106, task(5, 'WORKING')), statusEvent(107, task(61, 'COMPLETED'))]);
    expect(store.getState().inbox.total).toBe(5);
  });

  it('does not count a live arrival twice when its page comes in, nor a card being answered', async () => {
    const { api, store } = await loaded();
    store.getState().receive([statusEvent(100, task(46, 'INPUT_REQUIRED', { prompt: 'Again?' }))]);
    expect(store.getState().inbox.total).toBe(6);
    api.answerResult = () => new Promise<Task>(() => undefined); // still on its way
    void store.getState().answerTask('t47', { text: 'x' });
    void store.getState().loadMoreInbox();
    api.inboxPages![1]!.resolve({ items: [waiting(47), task46()], total: 6 });
    await flush();
    expect(ids(store)).toEqual(['t46', 't50', 't49', 't48']);
    function task46(): InboxItem {
      return { ...waiting(46), task: task(46, 'INPUT_REQUIRED', { prompt: 'Again?' }) };
    }
  });

  it('takes an answered card off the count at once, and puts both back if the host refuses', async () => {
    const { api, store } = await loaded();
    let refuse!: (err: unknown) => void;
    api.answerResult = () => new Promise<Task>((_, reject) => (refuse = reject));
    const sent = store.getState().answerTask('t49', { text: 'x' });
    expect(ids(store)).toEqual(['t50', 't48']);
    expect(store.getState().inbox.total).toBe(4);
    refuse(new ApiError(400, 'INVALID_ANSWER', 'no'));
    expect(await sent).toBe(false);
    expect(ids(store)).toEqual(['t50', 't49', 't48']);
    expect(store.getState().inbox.total).toBe(5);
    // Accepted this time: the WORKING event that follows is not counted again.
    api.answerResult = async () => task(49);
    expect(await store.getState().answerTask('t49', { text: 'y' })).toBe(true);
    store.getState().receive([answerEvent(200, 't49'), statusEvent(201, task(49, 'WORKING', { updated_at: '2025-01-01T12:00:00.000Z' }))]);
    expect(store.getState().inbox.total).toBe(4);
  });

  it('asks for the count again when a task that was not loaded is cancelled (it may have been waiting)', async () => {
    const { api, store } = await loaded();
    store.getState().receive([statusEvent(100, task(46, 'CANCELLED'))]);
    expect(api.inboxQueries.at(-1)).toEqual({ limit: 1 });
    // Meanwhile a new question arrives: it is added to what the server counted.
    store.getState().receive([statusEvent(101, task(70, 'INPUT_REQUIRED'))]);
    expect(store.getState().inbox.total).toBe(6);
    api.inboxPages!.at(-1)!.resolve({ items: [waiting(48)], total: 4, next_cursor: 'x' });
    await flush();
    expect(store.getState().inbox.total).toBe(5);
    // A cancelled task newer than the loaded pages was not waiting: nothing to ask.
    const calls = api.inboxCalls;
    store.getState().receive([statusEvent(102, task(80, 'CANCELLED'))]);
    expect(api.inboxCalls).toBe(calls);
    expect(store.getState().inbox.total).toBe(5);
  });
});

describe('the task list', () => {
  it('asks for the filters and ignores an answer for filters that were replaced meanwhile', async () => {
    const { api, store } = setup();
    void store.getState().loadTasks();
    store.getState().setTaskFilters({ status: ['FAILED'], agent: ['echo'], q: ' disk ' });
    expect(api.taskQueries.at(-1)).toEqual({ status: ['FAILED'], agent: ['echo'], q: 'disk', limit: 200 });
    api.taskPages[1]!.resolve({ tasks: [summaryOf(task(2, 'FAILED'), 'echo')], total: 1 });
    await flush();
    api.taskPages[0]!.resolve({ tasks: [summaryOf(task(1), 'echo'), summaryOf(task(3), 'echo')], total: 2 });
    await flush();
    expect(store.getState().tasks.rows.map((r) => r.task_id)).toEqual(['t2']);
    expect(store.getState().tasks.total).toBe(1);
  });

  it('applies status events that arrive while a page is on its way on top of that page', async () => {
    const { api, store } = setup();
    void store.getState().loadTasks();
    store.getState().receive([statusEvent(70, task(5, 'SUBMITTED')), statusEvent(71, task(1, 'COMPLETED'))]);
    // The page is a snapshot from before those events.
    api.taskPages[0]!.resolve({ tasks: [summaryOf(task(1, 'WORKING'), 'echo')], total: 1 });
    await flush();
    expect(store.getState().tasks.rows.map((r) => [r.task_id, r.status])).toEqual([
      ['t5', 'SUBMITTED'],
      ['t1', 'COMPLETED'],
    ]);
    expect(store.getState().tasks.total).toBe(2);
  });

  it('pages on with the cursor and keeps one copy of a task that was inserted live', async () => {
    const { api, store } = setup();
    void store.getState().loadTasks();
    api.taskPages[0]!.resolve({ tasks: [summaryOf(task(9), 'echo'), summaryOf(task(8), 'echo')], total: 4, next_cursor: 'c1' });
    await flush();
    void store.getState().loadMoreTasks();
    expect(api.taskQueries.at(-1)).toMatchObject({ cursor: 'c1' });
    api.taskPages[1]!.resolve({ tasks: [summaryOf(task(8), 'echo'), summaryOf(task(7), 'echo')], total: 4 });
    await flush();
    expect(store.getState().tasks.rows.map((r) => r.task_id)).toEqual(['t9', 't8', 't7']);
    expect(store.getState().tasks.nextCursor).toBeUndefined();
  });
});

describe('live events', () => {
  it('a `reset` refetches every part that was loaded, and nothing else', async () => {
    const { api, store } = setup();
    await store.getState().loadInbox();
    await store.getState().loadAgents();
    store.getState().receive([{ type: 'reset' }]);
    await flush();
    expect(api.inboxCalls).toBe(2);
    expect(api.agentCalls).toBe(2);
    expect(api.taskQueries).toEqual([]);
  });

  it('refreshAll(since) refetches only what was fetched before the stream opened', async () => {
    const { api, store } = setup();
    await store.getState().loadInbox();
    const opened = 1_000_000;
    store.getState().refreshAll(opened);
    await flush();
    expect(api.inboxCalls).toBe(2);
    store.getState().refreshAll(0);
    await flush();
    expect(api.inboxCalls).toBe(2);
  });

  it('`changed: agents` refetches the agents once they are loaded', async () => {
    const { api, store } = setup();
    store.getState().receive([{ type: 'changed', what: 'agents' }]);
    expect(api.agentCalls).toBe(0);
    await store.getState().loadAgents();
    store.getState().receive([{ type: 'changed', what: 'agents' }]);
    await flush();
    expect(api.agentCalls).toBe(2);
  });
});

describe('session', () => {
  it('exchanges a good token, and says so when a token is spent', async () => {
    const { api, store } = setup();
    await store.getState().startSession('good');
    expect(store.getState().session).toMatchObject({ status: 'ready', info: { version: '1' } });

    const other = setup();
    other.api.session = async () => {
      throw new ApiError(401, 'UNAUTHORIZED', 'no session');
    };
    await other.store.getState().startSession('spent');
    expect(other.store.getState().session).toEqual({ status: 'signed-out', reason: 'invalid-token' });
    expect(api.sessionTokens).toEqual(['good']);
  });

  it('keeps the session this browser already has when an old link is opened again', async () => {
    const { store } = setup();
    await store.getState().startSession('spent');
    expect(store.getState().session.status).toBe('ready');
  });

  it('tells an unreachable host from a missing session, and notices a session that ended', async () => {
    const { api, store } = setup();
    api.session = async () => {
      throw new ApiError(0, 'NETWORK_ERROR', 'Agent Host is not answering.');
    };
    await store.getState().startSession();
    expect(store.getState().session).toEqual({ status: 'unreachable', message: 'Agent Host is not answering.' });

    api.session = async () => ({ version: '1', a2a_url: 'http://h', data_dir: '/d', desktop: false });
    await store.getState().startSession();
    store.getState().sessionEnded();
    expect(store.getState().session).toEqual({ status: 'signed-out', reason: 'ended' });
  });
});

describe('a prompt opened by its link (#/inbox/<taskId>)', () => {
  const range = (from: number, to: number): InboxItem[] => Array.from({ length: from - to + 1 }, (_, k) => waiting(from - k));
  const ids = (store: AppStore): string[] => store.getState().inbox.items.map((i) => i.task.task_id);
  const detailOf = (t: Task, agent = 'echo'): TaskDetail => ({
    task: t,
    agent_slug: agent,
    agent_url: `http://h/agents/${agent}`,
    artifacts: [],
    deliveries: [],
    events: [],
    more_events_before: false,
  });

  /** 5 waiting, 3 on the first page: t50..t48 loaded, t47 and t46 not. */
  async function loaded(): Promise<{ api: FakeApi; store: AppStore }> {
    const { api, store } = setup();
    api.inboxPages = [];
    void store.getState().loadInbox();
    api.inboxPages[0]!.resolve({ items: range(50, 48), total: 5, next_cursor: 'c1' });
    await flush();
    return { api, store };
  }

  it('points at a loaded card without fetching anything, and asks again on every request', async () => {
    const { api, store } = await loaded();
    await store.getState().showInboxPrompt('t49');
    const first = store.getState().inbox.target;
    expect(first).toMatchObject({ taskId: 't49', status: 'waiting' });
    expect(api.taskCalls).toEqual([]);
    await store.getState().showInboxPrompt('t49');
    expect(store.getState().inbox.target!.request).toBeGreaterThan(first!.request);
    expect(ids(store)).toEqual(['t50', 't49', 't48']);
  });

  it('fetches a waiting task that is not on a loaded page and puts its card on top, counted once', async () => {
    const { api, store } = await loaded();
    api.details.t46 = detailOf(waiting(46).task);
    await store.getState().showInboxPrompt('t46');
    expect(api.taskCalls).toEqual(['t46']);
    expect(ids(store)).toEqual(['t46', 't50', 't49', 't48']);
    expect(store.getState().inbox.items[0]).toMatchObject({ agent_slug: 'echo', task: { prompt: 'Question 46?' } });
    expect(store.getState().inbox.total).toBe(5);
    expect(store.getState().inbox.target).toMatchObject({ taskId: 't46', status: 'waiting' });

    // The page that holds it does not add it twice; a reload of the first page keeps it on top.
    void store.getState().loadMoreInbox();
    api.inboxPages![1]!.resolve({ items: range(47, 46), total: 5 });
    await flush();
    expect(ids(store)).toEqual(['t46', 't50', 't49', 't48', 't47']);
    void store.getState().loadInbox();
    api.inboxPages![2]!.resolve({ items: range(50, 48), total: 5, next_cursor: 'c1' });
    await flush();
    expect(ids(store)).toEqual(['t46', 't50', 't49', 't48']);
    expect(store.getState().inbox.total).toBe(5);

    // Once the link is left, a reload no longer pins it.
    store.getState().clearInboxPrompt();
    expect(store.getState().inbox.target).toBeUndefined();
    void store.getState().loadInbox();
    api.inboxPages![3]!.resolve({ items: range(50, 48), total: 5, next_cursor: 'c1' });
    await flush();
    expect(ids(store)).toEqual(['t50', 't49', 't48']);
  });

  it('says a task no longer waits: when it is fetched so, and live when it is answered elsewhere', async () => {
    const { api, store } = await loaded();
    api.details.t30 = detailOf(task(30, 'COMPLETED'), 'writer');
    await store.getState().showInboxPrompt('t30');
    expect(store.getState().inbox.target).toMatchObject({ taskId: 't30', status: 'gone', agentSlug: 'writer', task: { status: 'COMPLETED' } });
    expect(ids(store)).toEqual(['t50', 't49', 't48']);

    await store.getState().showInboxPrompt('t49');
    store.getState().receive([answerEvent(300, 't49'), statusEvent(301, task(49, 'WORKING', { updated_at: '2025-01-01T12:00:00.000Z' }))]);
    expect(store.getState().inbox.target).toMatchObject({ taskId: 't49', status: 'gone', task: { status: 'WORKING' } });
    expect(ids(store)).toEqual(['t50', 't48']);
    expect(store.getState().inbox.total).toBe(4);
    // It asks again: the new question is the one shown.
    store.getState().receive([statusEvent(302, task(49, 'INPUT_REQUIRED', { prompt: 'One more?', updated_at: '2025-01-01T12:01:00.000Z' }))]);
    expect(store.getState().inbox.target).toMatchObject({ taskId: 't49', status: 'waiting' });
    expect(store.getState().inbox.items[0]!.task.prompt).toBe('One more?');
  });

  it('is not taken back by the events of a task fetched already answered, still on their way', async () => {
    const { api, store } = await loaded();
    const asked = task(40, 'INPUT_REQUIRED', { prompt: 'Old?', updated_at: '2025-01-01T12:00:00.000Z' });
    api.details.t40 = detailOf(task(40, 'COMPLETED', { updated_at: '2025-01-01T12:02:00.000Z' }));
    await store.getState().showInboxPrompt('t40');
    const gone = store.getState().inbox.target;
    expect(gone).toMatchObject({ status: 'gone', task: { status: 'COMPLETED' } });
    store.getState().receive([statusEvent(600, asked)]);
    expect(store.getState().inbox.target).toBe(gone);
    store.getState().receive([answerEvent(601, 't40'), statusEvent(602, task(40, 'WORKING', { updated_at: '2025-01-01T12:01:00.000Z' }))]);
    expect(store.getState().inbox.target).toBe(gone);
  });

  it('trusts a live event newer than the snapshot it fetched', async () => {
    const { api, store } = await loaded();
    let answer!: (detail: TaskDetail) => void;
    api.taskDetail = () => new Promise<TaskDetail>((resolve) => (answer = resolve));
    const shown = store.getState().showInboxPrompt('t46');
    expect(store.getState().inbox.target).toMatchObject({ status: 'loading' });
    // Answered elsewhere while the (older) detail is on its way.
    store.getState().receive([answerEvent(400, 't46'), statusEvent(401, task(46, 'WORKING', { updated_at: '2025-01-01T12:00:00.000Z' }))]);
    answer(detailOf(waiting(46).task));
    await shown;
    expect(store.getState().inbox.target).toMatchObject({ status: 'gone', task: { status: 'WORKING' } });
    expect(ids(store)).toEqual(['t50', 't49', 't48']);
  });

  it('shows nothing more for a prompt answered from here, and points at it again if the host refuses', async () => {
    const { api, store } = await loaded();
    api.details.t46 = detailOf(waiting(46).task);
    await store.getState().showInboxPrompt('t46');
    let refuse!: (err: unknown) => void;
    api.answerResult = () => new Promise<Task>((_, reject) => (refuse = reject));
    const sent = store.getState().answerTask('t46', { text: 'x' });
    expect(store.getState().inbox.target).toMatchObject({ taskId: 't46', status: 'answered' });
    expect(ids(store)).toEqual(['t50', 't49', 't48']);
    refuse(new ApiError(400, 'INVALID_ANSWER', 'no'));
    expect(await sent).toBe(false);
    expect(store.getState().inbox.target).toMatchObject({ taskId: 't46', status: 'waiting' });
    expect(ids(store)).toEqual(['t46', 't50', 't49', 't48']);

    api.answerResult = async () => task(46);
    expect(await store.getState().answerTask('t46', { text: 'y' })).toBe(true);
    store.getState().receive([answerEvent(500, 't46'), statusEvent(501, task(46, 'WORKING', { updated_at: '2025-01-01T12:00:00.000Z' }))]);
    expect(store.getState().inbox.target).toMatchObject({ taskId: 't46', status: 'answered' });
    // Asked for again while the old prompt is still what the host has: still nothing to answer.
    await store.getState().showInboxPrompt('t46');
    expect(store.getState().inbox.target).toMatchObject({ status: 'answered' });
    expect(ids(store)).toEqual(['t50', 't49', 't48']);
  });

  it('tells a task that does not exist from one that could not be fetched, and drops a late answer', async () => {
    const { api, store } = await loaded();
    await store.getState().showInboxPrompt('nope');
    expect(store.getState().inbox.target).toEqual({ taskId: 'nope', request: expect.any(Number), status: 'not-found' });
    api.taskDetail = async () => {
      throw new ApiError(0, 'NETWORK_ERROR', 'Agent Host is not answering.');
    };
    await store.getState().showInboxPrompt('t46');
    expect(store.getState().inbox.target).toMatchObject({ status: 'error', message: 'Agent Host is not answering.' });

    let answer!: (detail: TaskDetail) => void;
    api.taskDetail = () => new Promise<TaskDetail>((resolve) => (answer = resolve));
    const shown = store.getState().showInboxPrompt('t46');
    store.getState().clearInboxPrompt();
    answer(detailOf(waiting(46).task));
    await shown;
    expect(store.getState().inbox.target).toBeUndefined();
    expect(ids(store)).toEqual(['t50', 't49', 't48']);
  });
});

describe('intake', () => {
  it('loads the state, and fetches it again on `changed: intake` (not before it was loaded)', async () => {
    const { api, store } = setup();
    store.getState().receive([{ type: 'changed', what: 'intake' }]);
    expect(api.intakeLoads).toBe(0);
    await store.getState().loadIntake();
    expect(store.getState().intake).toMatchObject({ status: 'ready', data: { paused: false } });
    api.intake = { paused: true, paused_at: '2025-01-01T12:00:00.000Z' };
    store.getState().receive([{ type: 'changed', what: 'intake' }]);
    await flush();
    expect(api.intakeLoads).toBe(2);
    expect(store.getState().intake.data).toEqual({ paused: true, paused_at: '2025-01-01T12:00:00.000Z' });
    store.getState().refreshAll();
    await flush();
    expect(api.intakeLoads).toBe(3);
  });

  it('pauses and resumes with one request each, and says so', async () => {
    const { api, store } = setup();
    await store.getState().loadIntake();
    expect(await store.getState().setIntakePaused(true)).toBe(true);
    expect(store.getState().intake.data).toMatchObject({ paused: true });
    expect(store.getState().toasts.at(-1)).toMatchObject({ kind: 'info', message: 'Intake paused: new tasks are refused until you resume.' });
    expect(await store.getState().setIntakePaused(false)).toBe(true);
    expect(store.getState().intake.data).toEqual({ paused: false });
    expect(api.intakeSets).toEqual([true, false]);
    expect(store.getState().intake.saving).toBe(false);
  });

  it('keeps the state and shows the error when the host refuses; one change at a time', async () => {
    const { api, store } = setup();
    api.intake = { paused: true, paused_at: '2025-01-01T12:00:00.000Z' };
    await store.getState().loadIntake();
    let fail!: (err: unknown) => void;
    api.intakeSet = () => new Promise<IntakeState>((_, reject) => (fail = reject));
    const resuming = store.getState().setIntakePaused(false);
    expect(store.getState().intake.saving).toBe(true);
    expect(await store.getState().setIntakePaused(false)).toBe(false); // a second click meanwhile sends nothing
    fail(new ApiError(500, 'INTERNAL_ERROR', 'disk full'));
    expect(await resuming).toBe(false);
    expect(api.intakeSets).toEqual([false]);
    expect(store.getState().intake).toMatchObject({ saving: false, data: { paused: true } });
    expect(store.getState().toasts.at(-1)).toMatchObject({ kind: 'error', message: 'Could not resume intake: disk full' });
  });

  it('does not let a load that started before a change overwrite it', async () => {
    const { api, store } = setup();
    let answerLoad!: (state: IntakeState) => void;
    api.intakeLoad = () => new Promise<IntakeState>((resolve) => (answerLoad = resolve));
    const loading = store.getState().loadIntake();
    await store.getState().setIntakePaused(true);
    answerLoad({ paused: false });
    await loading;
    expect(store.getState().intake.data).toMatchObject({ paused: true });
  });

  it('reports a host without the intake API as an error, not as paused', async () => {
    const { api, store } = setup();
    api.intakeLoad = async () => {
      throw new ApiError(404, 'NOT_FOUND', 'Route GET:/api/intake not found');
    };
    await store.getState().loadIntake();
    expect(store.getState().intake).toMatchObject({ status: 'error', error: 'Route GET:/api/intake not found' });
    expect(store.getState().intake.data).toBeUndefined();
  });
});

describe('tasks started from "Try it": the person is told when they end or ask', () => {
  const page = globalThis as { agentHost?: unknown };
  afterEach(() => {
    delete page.agentHost;
  });

  /** The desktop bridge, as far as notifications go: records each one; `refuse` rejects like a shell that cannot show it. */
  function installBridge(refuse?: string): unknown[] {
    const shown: unknown[] = [];
    page.agentHost = {
      showNotification(notification: unknown) {
        shown.push(notification);
        return refuse === undefined ? Promise.resolve() : Promise.reject(new Error(refuse));
      },
    };
    return shown;
  }

  const echo = { slug: 'echo', display_name: 'Echo' } as AgentInfo;
  const at = (minute: number): string => `2025-01-01T12:${String(minute).padStart(2, '0')}:00.000Z`;

  /** A store whose page is in front or not as the test says (away by default), with the agents loaded. */
  async function watching(agents: AgentInfo[] = [echo]): Promise<{ api: FakeApi; store: AppStore; setInFront: (on: boolean) => void }> {
    const api = new FakeApi();
    api.agents = agents;
    let inFront = false;
    const store = createAppStore(api, { debounceMs: 0, pageInFront: () => inFront });
    await store.getState().loadAgents();
    return { api, store, setInFront: (on) => (inFront = on) };
  }

  const watched = (store: AppStore): string[] => Object.keys(store.getState().watched).sort();

  it('notifies the end of a watched task while the page is not in front, exactly once, then forgets it', async () => {
    const shown = installBridge();
    const { store } = await watching();
    store.getState().watchTask(task(1, 'SUBMITTED'), 'echo');
    expect(watched(store)).toEqual(['t1']);

    store.getState().receive([statusEvent(10, task(1, 'WORKING', { updated_at: at(1) }))]);
    expect(shown).toEqual([]);
    const done = task(1, 'COMPLETED', { updated_at: at(2), output: { message: 'hi', lines: ['a', 'b'] } });
    store.getState().receive([statusEvent(11, done)]);
    expect(shown).toEqual([{ title: 'Echo finished', body: '{"message":"hi","lines":["a","b"]}', task_id: 't1' }]);
    expect(isDesktopNotification(shown[0])).toBe(true);
    expect(watched(store)).toEqual([]);
    await flush();
    expect(store.getState().toasts).toEqual([]);

    // Replayed after a reconnect: it was told already.
    store.getState().receive([statusEvent(11, done)]);
    expect(shown).toHaveLength(1);
  });

  it('says how it failed, was cancelled or what it asks, on one line clipped to the contract', async () => {
    const shown = installBridge();
    const long = { slug: 'long', display_name: `The ${'very '.repeat(40)}long agent` } as AgentInfo;
    const { store } = await watching([echo, long]);
    for (const n of [1, 2, 3, 4, 5]) store.getState().watchTask(task(n, 'SUBMITTED'), n === 5 ? 'long' : 'echo');
    store.getState().receive([
      statusEvent(20, task(1, 'FAILED', { updated_at: at(1), error: { code: 'QUOTA_EXCEEDED', message: 'The CRM allows 500 calls;\n  this run needed 742.' } })),
      statusEvent(21, task(2, 'CANCELLED', { updated_at: at(1), error: { code: 'CANCELLED', message: 'the task was cancelled' } })),
      statusEvent(22, task(3, 'INPUT_REQUIRED', { updated_at: at(1), prompt: 'Ship\tit?\n' })),
      statusEvent(23, task(4, 'COMPLETED', { updated_at: at(1), output: { text: 'x'.repeat(1000) } })),
      statusEvent(24, task(5, 'COMPLETED', { updated_at: at(1) })),
    ]);
    // The question (t3) is not among them: the desktop shell announces every prompt itself.
    expect(shown.slice(0, 2)).toEqual([
      { title: 'Echo failed', body: 'The CRM allows 500 calls; this run needed 742.', task_id: 't1' },
      { title: 'Echo was cancelled', body: 'the task was cancelled', task_id: 't2' },
    ]);
    const clipped = shown[2] as { title: string; body: string; task_id: string };
    expect(clipped.title).toBe('Echo finished');
    expect(clipped.body).toHaveLength(NOTIFICATION_BODY_MAX);
    expect(clipped.body).toBe(`{"text":"${'x'.repeat(NOTIFICATION_BODY_MAX - 10)}…`);
    const named = shown[3] as { title: string; body: string };
    // Cut at 119 (the last one for "…"), then the space before it goes too.
    expect(named.title).toBe(`The ${'very '.repeat(23).trimEnd()}…`);
    expect(named.title.length).toBeLessThanOrEqual(NOTIFICATION_TITLE_MAX);
    expect(named.body).toBe(''); // no output: nothing to preview
    expect(shown).toHaveLength(4);
    for (const notification of shown) expect(isDesktopNotification(notification)).toBe(true);
    // Only the question is still followed (its end is yet to come).
    expect(watched(store)).toEqual(['t3']);
  });

  it('leaves questions to the shell\'s own prompt notification, and tells the end once', async () => {
    const shown = installBridge();
    const { store } = await watching();
    store.getState().watchTask(task(1, 'SUBMITTED'), 'echo');
    const asking = statusEvent(30, task(1, 'INPUT_REQUIRED', { updated_at: at(1), prompt: 'Which folder?' }));
    store.getState().receive([asking]);
    store.getState().receive([asking]);
    expect(shown).toEqual([]);
    await flush();
    expect(store.getState().toasts).toEqual([]);

    store.getState().receive([answerEvent(31, 't1'), statusEvent(32, task(1, 'WORKING', { updated_at: at(2) }))]);
    // A second question is a new one.
    store.getState().receive([statusEvent(33, task(1, 'INPUT_REQUIRED', { updated_at: at(3), prompt: 'Overwrite?' }))]);
    store.getState().receive([statusEvent(34, task(1, 'WORKING', { updated_at: at(4) })), statusEvent(35, task(1, 'COMPLETED', { updated_at: at(5), output: { ok: true } }))]);
    expect(shown).toEqual([{ title: 'Echo finished', body: '{"ok":true}', task_id: 't1' }]);
    expect(watched(store)).toEqual([]);
  });

  it('does not ask a question that was answered within the same batch of events', async () => {
    const shown = installBridge();
    const { store } = await watching();
    store.getState().watchTask(task(1, 'SUBMITTED'), 'echo');
    store.getState().receive([
      statusEvent(40, task(1, 'INPUT_REQUIRED', { updated_at: at(1), prompt: 'Sure?' })),
      answerEvent(41, 't1'),
      statusEvent(42, task(1, 'WORKING', { updated_at: at(2) })),
    ]);
    expect(shown).toEqual([]);
    expect(watched(store)).toEqual(['t1']);
  });

  it('shows a toast with a link instead, and no notification, while the page is in front', async () => {
    const shown = installBridge();
    const { store, setInFront } = await watching();
    setInFront(true);
    store.getState().watchTask(task(1, 'SUBMITTED'), 'echo');
    store.getState().watchTask(task(2, 'SUBMITTED'), 'echo');
    store.getState().receive([
      statusEvent(50, task(1, 'COMPLETED', { updated_at: at(1), output: { message: 'hi' } })),
      statusEvent(51, task(2, 'INPUT_REQUIRED', { updated_at: at(1), prompt: 'Ship it?' })),
    ]);
    await flush();
    expect(shown).toEqual([]);
    expect(store.getState().toasts.map(({ id: _id, ...t }) => t)).toEqual([
      { kind: 'success', message: 'Echo finished: {"message":"hi"}', href: '#/tasks/t1', linkText: 'Open it' },
      { kind: 'info', message: 'Echo asks for input: Ship it?', href: '#/inbox/t2', linkText: 'Answer it' },
    ]);

    // The page is left before the end: now it is a notification.
    setInFront(false);
    store.getState().receive([statusEvent(52, task(2, 'FAILED', { updated_at: at(3), error: { code: 'E', message: 'boom' } }))]);
    expect(shown).toEqual([{ title: 'Echo failed', body: 'boom', task_id: 't2' }]);
    expect(store.getState().toasts).toHaveLength(2);
  });

  it('shows only the toast in a plain browser (no bridge), in front or not', async () => {
    const { store } = await watching();
    store.getState().watchTask(task(1, 'SUBMITTED'), 'echo');
    store.getState().receive([statusEvent(60, task(1, 'CANCELLED', { updated_at: at(1) }))]);
    expect(store.getState().toasts.map(({ id: _id, ...t }) => t)).toEqual([
      { kind: 'info', message: 'Echo was cancelled.', href: '#/tasks/t1', linkText: 'Open it' },
    ]);
    expect(watched(store)).toEqual([]);
  });

  it('falls back to the toast when the shell refuses the notification (or the bridge throws)', async () => {
    const shown = installBridge('notifications are turned off');
    const { store } = await watching();
    store.getState().watchTask(task(1, 'SUBMITTED'), 'echo');
    store.getState().receive([statusEvent(70, task(1, 'COMPLETED', { updated_at: at(1), output: { message: 'hi' } }))]);
    expect(shown).toHaveLength(1);
    await flush();
    expect(store.getState().toasts.map(({ id: _id, ...t }) => t)).toEqual([
      { kind: 'success', message: 'Echo finished: {"message":"hi"}', href: '#/tasks/t1', linkText: 'Open it' },
    ]);

    page.agentHost = {
      showNotification() {
        throw new Error('not a DesktopNotification');
      },
    };
    store.getState().watchTask(task(2, 'SUBMITTED'), 'echo');
    store.getState().receive([statusEvent(71, task(2, 'FAILED', { updated_at: at(1), error: { code: 'E', message: 'boom' } }))]);
    await flush();
    expect(store.getState().toasts.at(-1)).toMatchObject({ kind: 'error', message: 'Echo failed: boom', href: '#/tasks/t2' });
  });

  it('ignores tasks this page did not start', async () => {
    const shown = installBridge();
    const { store } = await watching();
    store.getState().watchTask(task(1, 'SUBMITTED'), 'echo');
    store.getState().receive([
      statusEvent(80, task(8, 'INPUT_REQUIRED', { updated_at: at(1), prompt: 'From an orchestrator?' })),
      statusEvent(81, task(9, 'COMPLETED', { updated_at: at(1) })),
      statusEvent(82, task(7, 'FAILED', { updated_at: at(1), error: { code: 'E', message: 'boom' } })),
    ]);
    await flush();
    expect(shown).toEqual([]);
    expect(store.getState().toasts).toEqual([]);
    expect(watched(store)).toEqual(['t1']);
  });

  it('tells an end whose events came before the create call answered', async () => {
    const shown = installBridge();
    const { store } = await watching();
    store.getState().receive([statusEvent(90, task(1, 'WORKING', { updated_at: at(1) })), statusEvent(91, task(1, 'COMPLETED', { updated_at: at(2), output: { fast: true } }))]);
    store.getState().watchTask(task(1, 'SUBMITTED', { updated_at: at(0) }), 'echo');
    expect(shown).toEqual([{ title: 'Echo finished', body: '{"fast":true}', task_id: 't1' }]);
    expect(watched(store)).toEqual([]);
  });

  it('after a `reset`, fetches each watched task again: tells what ended meanwhile, forgets what is gone', async () => {
    const shown = installBridge();
    const { api, store } = await watching();
    for (const n of [1, 2, 3]) store.getState().watchTask(task(n, 'SUBMITTED', { updated_at: at(0) }), 'echo');
    const detailOf = (t: Task): TaskDetail => ({ task: t, agent_slug: 'echo', agent_url: 'http://h/agents/echo', artifacts: [], deliveries: [], events: [], more_events_before: false });
    api.details = {
      t1: detailOf(task(1, 'COMPLETED', { updated_at: at(5), output: { message: 'done while away' } })),
      t2: detailOf(task(2, 'WORKING', { updated_at: at(5) })),
      // t3 was deleted meanwhile: 404.
    };
    store.getState().receive([{ type: 'reset' }]);
    await flush();
    expect([...api.taskCalls].sort()).toEqual(['t1', 't2', 't3']);
    expect(shown).toEqual([{ title: 'Echo finished', body: '{"message":"done while away"}', task_id: 't1' }]);
    expect(watched(store)).toEqual(['t2']);
    expect(store.getState().watched.t2).toMatchObject({ seenAt: at(5) });

    // An older state (an event that was on its way before the refetch) is not news.
    store.getState().receive([statusEvent(100, task(2, 'INPUT_REQUIRED', { updated_at: at(4), prompt: 'Stale?' }))]);
    expect(shown).toHaveLength(1);
    // The stream goes on as usual.
    store.getState().receive([statusEvent(101, task(2, 'COMPLETED', { updated_at: at(6), output: {} }))]);
    expect(shown.at(-1)).toEqual({ title: 'Echo finished', body: '{}', task_id: 't2' });
    expect(watched(store)).toEqual([]);
  });

  it('keeps a watched task it could not fetch (the host was briefly away) for the next refetch', async () => {
    const { api, store } = await watching();
    store.getState().watchTask(task(1, 'SUBMITTED'), 'echo');
    api.taskDetail = async () => {
      throw new ApiError(0, 'NETWORK_ERROR', 'host unreachable');
    };
    store.getState().refreshAll(Date.now());
    await flush();
    expect(api.taskCalls).toEqual(['t1']);
    expect(watched(store)).toEqual(['t1']);
  });
});
