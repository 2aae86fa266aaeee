import type { AgentDirectory } from '../agents/loaded-agent.js';
import type { NotificationSettings } from '../config/host-config.js';
import type { Logger } from '../logger.js';
import type { Db } from '../store/database.js';
import type { TaskStore } from '../store/task-store.js';
import { DeliveryQueue } from './delivery-queue.js';
import { DeliveryStore } from './delivery-store.js';
import { Notifier } from './notifier.js';
import { createOutboxHook } from './outbox.js';

export interface Notifications {
  deliveries: DeliveryStore;
  notifier: Notifier;
}

export interface NotificationsOptions {
  db: Db;
  store: TaskStore;
  agents: Pick<AgentDirectory, 'get'>;
  settings: NotificationSettings;
  logger: Logger;
}

/**
 * Push notifications for a host: the outbox hook joins every status change's transaction from now
 * on (install it before the runtime's restart recovery changes statuses); the notifier sends
 * nothing until started.
 */
export function setUpNotifications(options: NotificationsOptions): Notifications {
  const { db, store } = options;
  const deliveries = new DeliveryStore(db);
  store.addStatusHook(createOutboxHook(db, options.agents));
  const notifier = new Notifier({
    queue: new DeliveryQueue(db),
    events: store,
    redeliveries: deliveries,
    settings: options.settings,
    logger: options.logger,
  });
  return { deliveries, notifier };
}
