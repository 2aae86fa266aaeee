import { useState } from 'react';
import type { DeliverySummary, TaskDetail } from '../../../../main/shared/control-api.js';
import { Icon } from '../../components/Icon.js';
import { RelativeTime } from '../../components/RelativeTime.js';
import { EmptyState, Spinner } from '../../components/States.js';
import { STATUS_LABEL } from '../../components/StatusChip.js';
import { formatDuration, formatTimestamp } from '../../lib/format.js';
import { useActions, useApp } from '../../store/react.js';

const STATE_LABEL = { pending: 'Pending', delivered: 'Delivered', dead: 'Gave up' } as const;

export function DeliveriesSection({ data }: { data: TaskDetail }) {
  if (data.deliveries.length === 0) {
    return (
      <EmptyState icon="webhook" title="No webhook deliveries">
        <p>When the agent or the task has a notification endpoint, each status change is posted to it and listed here.</p>
      </EmptyState>
    );
  }
  return (
    <ul className="deliveries">
      {data.deliveries.map((d) => (
        <DeliveryItem key={d.id} delivery={d} />
      ))}
    </ul>
  );
}

function DeliveryItem({ delivery: d }: { delivery: DeliverySummary }) {
  const [open, setOpen] = useState(false);
  const attempts = useApp((s) => s.detail.attempts[d.id]);
  const redelivering = useApp((s) => Boolean(s.detail.redelivering[d.id]));
  const { loadAttempts, redeliver } = useActions();
  const toggle = (): void => {
    if (!open && !attempts) void loadAttempts(d.id);
    setOpen((o) => !o);
  };
  return (
    <li className="card delivery">
      <div className="delivery-head">
        <span className={`pill pill-${d.state}`}>{STATE_LABEL[d.state]}</span>
        <span className="delivery-what">
          {STATUS_LABEL[d.status]} <span className="muted">→</span> <span className="mono delivery-url">{d.endpoint_url}</span>
        </span>
        <span className="grow" />
        <button type="button" className="btn btn-sm" onClick={() => void redeliver(d.id)} disabled={redelivering}>
          <Icon name="refresh" size={14} /> {redelivering ? 'Queuing…' : 'Redeliver'}
        </button>
      </div>
      <dl className="delivery-facts">
        <div>
          <dt>Attempts</dt>
          <dd>{d.attempts}</dd>
        </div>
        <div>
          <dt>Last answer</dt>
          <dd>{d.last_status_code !== undefined ? `HTTP ${d.last_status_code}` : '—'}</dd>
        </div>
        <div>
          <dt>{d.state === 'delivered' ? 'Delivered' : d.next_attempt_at ? 'Next attempt' : 'Created'}</dt>
          <dd>
            <RelativeTime iso={d.state === 'delivered' && d.delivered_at ? d.delivered_at : (d.next_attempt_at ?? d.created_at)} />
          </dd>
        </div>
      </dl>
      {d.last_error && (
        <p className="delivery-error">
          <Icon name="alert" size={12} /> {d.last_error}
        </p>
      )}
      <button type="button" className="btn btn-ghost btn-sm" aria-expanded={open} onClick={toggle}>
        <Icon name={open ? 'chevronDown' : 'chevronRight'} size={14} /> Attempt history
      </button>
      {open && (
        <div className="attempts">
          {!attempts || attempts.status === 'loading' ? (
            <Spinner label="Loading attempts" />
          ) : attempts.status === 'error' ? (
            <p className="field-error">{attempts.error}</p>
          ) : attempts.items.length === 0 ? (
            <p className="muted">No attempt yet.</p>
          ) : (
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">#</th>
                  <th scope="col">When</th>
                  <th scope="col">Took</th>
                  <th scope="col">Result</th>
                </tr>
              </thead>
              <tbody>
                {attempts.items.map((a) => (
                  <tr key={a.attempt}>
                    <td>{a.attempt}</td>
                    <td title={formatTimestamp(a.started_at)}>
                      <RelativeTime iso={a.started_at} />
                    </td>
                    <td>{a.duration_ms !== undefined ? formatDuration(a.duration_ms) : '—'}</td>
                    <td className={a.error || (a.status_code ?? 0) >= 300 ? 'text-danger' : 'text-success'}>
                      {a.status_code !== undefined ? `HTTP ${a.status_code}` : ''}
                      {a.error ? `${a.status_code !== undefined ? ' · ' : ''}${a.error}` : ''}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
      )}
    </li>
  );
}
