/** Parsing of the control API's SSE frames (kept apart from EventSource so it runs in unit tests). */
import type { ControlEvent } from '../../../main/shared/control-api.js';

type ChangedPart = Extract<ControlEvent, { type: 'changed' }>['what'];
const CHANGED_PARTS: readonly ChangedPart[] = ['agents', 'settings', 'tokens', 'deliveries', 'intake'];

/** The event's JSON, checked just enough that a malformed frame is dropped instead of throwing later. */
export function parseControlEvent(name: string, data: string): ControlEvent | undefined {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return undefined;
  }
  if (name === 'reset') return { type: 'reset' };
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  if (name === 'changed' && CHANGED_PARTS.includes(v.what as ChangedPart)) return { type: 'changed', what: v.what as ChangedPart };
  if (name === 'task') {
    // Either the ControlEvent itself or just its payload: both carry `event` and `agent_slug`.
    const event = v.event as Record<string, unknown> | undefined;
    if (event && typeof event.id === 'number' && typeof event.task_id === 'string' && typeof event.kind === 'string' && typeof v.agent_slug === 'string') {
      return { type: 'task', event: event as unknown as Extract<ControlEvent, { type: 'task' }>['event'], agent_slug: v.agent_slug };
    }
  }
  return undefined;
}
