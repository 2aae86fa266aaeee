import { dataDirLayout, defaultDataDir, prepareDataDir } from '../core/config/data-dir.js';
import { DeliveryStore } from '../core/notify/delivery-store.js';
import type { Delivery } from '../core/notify/delivery-types.js';
import { openDatabase } from '../core/store/database.js';
import type { DeliveriesCommand } from './args.js';

const COLUMNS = ['ID', 'STATE', 'ATTEMPTS', 'STATUS', 'TASK', 'ENDPOINT', 'LAST RESULT', 'NEXT ATTEMPT'] as const;

function lastResult(delivery: Delivery): string {
  if (delivery.state === 'delivered') return `HTTP ${delivery.last_status_code ?? '?'}`;
  return delivery.last_error ?? (delivery.attempts === 0 ? 'not tried yet' : '-');
}

function row(delivery: Delivery): string[] {
  return [
    String(delivery.id),
    delivery.state,
    String(delivery.attempts),
    delivery.task_status,
    delivery.task_id,
    delivery.endpoint_url,
    lastResult(delivery),
    delivery.next_attempt_at ?? '-',
  ];
}

/** Left-aligned columns, two spaces apart; the last column is not padded. */
function table(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ').trimEnd());
}

/**
 * Webhook history and manual redelivery, on the data dir directly (WAL lets this run beside a
 * host). A running host picks a redelivery up within seconds: see the notifier's re-check.
 */
export function runDeliveries(command: DeliveriesCommand, print: (line: string) => void): number {
  const layout = dataDirLayout(command.dataDir ?? defaultDataDir());
  prepareDataDir(layout);
  const db = openDatabase(layout.database);
  try {
    const deliveries = new DeliveryStore(db);
    switch (command.action) {
      case 'list': {
        const found =
          command.taskId !== undefined
            ? deliveries.listForTask(command.taskId).filter((d) => command.state === undefined || d.state === command.state).slice(0, command.limit)
            : deliveries.list({ limit: command.limit, ...(command.state ? { state: command.state } : {}) });
        if (found.length === 0) {
          print('No deliveries.');
          return 0;
        }
        for (const line of table([[...COLUMNS], ...found.map(row)])) print(line);
        return 0;
      }
      case 'redeliver': {
        const result = deliveries.redeliver(command.deliveryId);
        if (result.ok) {
          print(`Delivery ${command.deliveryId} queued again (webhook-id ${result.delivery.webhook_id}); a running host sends it within seconds.`);
          return 0;
        }
        print(
          result.reason === 'pending'
            ? `agent-host: error: delivery ${command.deliveryId} is still pending; only delivered or dead deliveries can be redelivered`
            : `agent-host: error: no delivery ${command.deliveryId} (see agent-host deliveries list)`,
        );
        return 1;
      }
    }
  } finally {
    db.close();
  }
}
