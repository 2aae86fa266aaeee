import { randomUUID } from 'node:crypto';
import type { Db } from '../../build/main/core/store/database.js';

export const SEED_AGENTS = ['seed-alpha', 'seed-beta', 'seed-gamma', 'seed-delta'] as const;
const WORDS = ['invoice', 'weather', 'report', 'column', 'average', 'summary', 'python', 'crawler', 'ledger', 'forecast'];

/** The status of seeded task `i`: mostly finished, some of every other status. */
export function seedStatus(i: number): string {
  const slot = i % 20;
  if (slot < 14) return 'COMPLETED';
  if (slot < 16) return 'FAILED';
  if (slot === 16) return 'CANCELLED';
  if (slot === 17) return 'INPUT_REQUIRED';
  if (slot === 18) return 'SUBMITTED';
  return 'WORKING';
}

export interface SeedOptions {
  /** updated_at (and created_at) of task 0; each next task is one second later. */
  startMs?: number;
  agents?: readonly string[];
}

/**
 * Inserts `count` tasks straight into the tasks table in one transaction (fast enough for
 * 100,000), for agents that are not loaded, so the runtime never picks them up. Every 1,000th
 * input holds LIKE wildcards and quotes, to check the search matches them literally.
 */
export function seedTasks(db: Db, count: number, options: SeedOptions = {}): void {
  const agents = options.agents ?? SEED_AGENTS;
  const start = options.startMs ?? Date.now() - count * 1000;
  const insert = db.prepare(
    `INSERT INTO tasks (task_id, agent_slug, agent_id, status, input, prompt, error_code, error_message, created_at, updated_at)
     VALUES (?, ?, '00000000-0000-4000-8000-000000000000', ?, ?, ?, ?, ?, ?, ?)`,
  );
  db.transaction(() => {
    for (let i = 0; i < count; i++) {
      const status = seedStatus(i);
      const word = WORDS[i % WORDS.length]!;
      const message = i % 1000 === 0 ? `50% off_sale "quoted" #${i}` : `task ${i} about ${word} and ${WORDS[(i * 7) % WORDS.length]}`;
      const at = new Date(start + i * 1000).toISOString();
      insert.run(
        randomUUID(),
        agents[i % agents.length],
        status,
        JSON.stringify({ message }),
        status === 'INPUT_REQUIRED' ? `Which colour for task ${i}?` : null,
        status === 'FAILED' ? 'AGENT_ERROR' : null,
        status === 'FAILED' ? `could not reach host number ${i}` : null,
        at,
        at,
      );
    }
  })();
}
