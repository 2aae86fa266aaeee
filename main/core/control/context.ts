import type { AgentRegistry } from '../agents/agent-registry.js';
import type { DataDirLayout } from '../config/data-dir.js';
import type { HostConfig } from '../config/host-config.js';
import type { HostChanges } from '../host-changes.js';
import type { DeliveryStore } from '../notify/delivery-store.js';
import type { AgentRuntime } from '../runtime/agent-runtime.js';
import type { TaskQueries } from '../store/task-queries.js';
import type { TaskStore } from '../store/task-store.js';
import type { TokenStore } from '../store/token-store.js';
import type { IntakeControl } from '../tasks/intake.js';
import type { RetentionJob } from '../tasks/retention-job.js';
import type { TaskService } from '../tasks/task-service.js';
import type { SessionRegistry } from './sessions.js';

/** The parts of the running host the control API reads and drives; each route takes what it needs. */
export interface ControlContext {
  /** The host's live settings: changes made through the API are applied to this object. */
  config: HostConfig;
  layout: DataDirLayout;
  store: TaskStore;
  queries: TaskQueries;
  tasks: TaskService;
  registry: AgentRegistry;
  runtime: Pick<AgentRuntime, 'reschedule' | 'runningCount'>;
  tokens: TokenStore;
  deliveries: DeliveryStore;
  changes: HostChanges;
  sessions: SessionRegistry;
  retention: Pick<RetentionJob, 'runSoon'>;
  /** Pause and resume of new tasks (saved to config.json). */
  intake: IntakeControl;
  /** `http://host:port` at which this machine reaches the A2A server. */
  a2aUrl: string;
  version: string;
  /** True once the host is stopping: no new tasks. */
  isShuttingDown: () => boolean;
}
