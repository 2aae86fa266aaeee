import { useMemo } from 'react';
import type { TaskDetail } from '../../../../main/shared/control-api.js';
import { Icon } from '../../components/Icon.js';
import { JsonView } from '../../components/JsonView.js';
import { STATUS_LABEL } from '../../components/StatusChip.js';
import { formatClock, formatDuration, formatTimestamp } from '../../lib/format.js';
import { prettyJson } from '../../lib/json.js';
import { buildTimeline } from '../../lib/timeline.js';
import { useActions, useApp } from '../../store/react.js';

export function OverviewSection({ data }: { data: TaskDetail }) {
  const { task } = data;
  return (
    <div className="sections">
      {task.status === 'FAILED' && task.error && (
        <div className="callout callout-danger" role="region" aria-label="Error">
          <div className="callout-title">
            <Icon name="alert" size={16} /> Failed with <code className="error-code">{task.error.code}</code>
          </div>
          <p className="callout-text">{task.error.message}</p>
        </div>
      )}
      <section className="section" aria-labelledby="sec-timeline">
        <h3 className="section-title" id="sec-timeline">
          Timeline
        </h3>
        <Timeline data={data} />
      </section>
      {task.output !== undefined && (
        <section className="section" aria-labelledby="sec-output">
          <h3 className="section-title" id="sec-output">
            Output
          </h3>
          <JsonView value={task.output} label="output" />
        </section>
      )}
      <section className="section" aria-labelledby="sec-input">
        <h3 className="section-title" id="sec-input">
          Input
        </h3>
        <JsonView value={task.input} label="input" />
      </section>
      <section className="section" aria-labelledby="sec-ids">
        <h3 className="section-title" id="sec-ids">
          Identifiers
        </h3>
        <dl className="kv">
          <dt>Task id</dt>
          <dd className="mono">{task.task_id}</dd>
          <dt>Agent</dt>
          <dd className="mono">{data.agent_url}</dd>
          <dt>A2A URL</dt>
          <dd className="mono">{`${data.agent_url}/tasks/${task.task_id}`}</dd>
        </dl>
      </section>
    </div>
  );
}

function Timeline({ data }: { data: TaskDetail }) {
  const entries = useMemo(() => buildTimeline(data), [data]);
  const loadingEarlier = useApp((s) => s.detail.loadingEarlier);
  const { loadEarlierEvents } = useActions();
  return (
    <>
      {data.more_events_before && (
        <button type="button" className="btn btn-sm btn-ghost timeline-earlier" onClick={() => void loadEarlierEvents()} disabled={loadingEarlier}>
          {loadingEarlier ? 'Loading…' : 'Load earlier events'}
        </button>
      )}
      <ol className="timeline">
        {entries.map((entry) => (
          <li key={entry.key} className={`timeline-item timeline-${entry.kind}${entry.kind === 'status' ? ` timeline-${entry.status.toLowerCase()}` : ''}`}>
            <span className="timeline-marker" aria-hidden="true" />
            <div className="timeline-body">
              <div className="timeline-head">
                <span className="timeline-label">
                  {entry.kind === 'status' ? STATUS_LABEL[entry.status] : entry.kind === 'answer' ? 'Answered' : `Artifact: ${entry.title}`}
                </span>
                {entry.at && (
                  <time className="timeline-time" dateTime={entry.at} title={formatTimestamp(entry.at)}>
                    {formatClock(entry.at)}
                  </time>
                )}
                {entry.kind === 'status' && entry.durationMs !== undefined && <span className="timeline-duration">{formatDuration(entry.durationMs)}</span>}
              </div>
              {entry.kind === 'status' && entry.note && <p className="timeline-note">{entry.note}</p>}
              {entry.kind === 'answer' && <pre className="timeline-answer-text">{compactAnswer(entry.input)}</pre>}
            </div>
          </li>
        ))}
      </ol>
    </>
  );
}

/** A short answer reads as its text; anything else as JSON. */
function compactAnswer(input: Record<string, unknown>): string {
  const keys = Object.keys(input);
  if (keys.length === 1 && keys[0] === 'text' && typeof input.text === 'string') return input.text;
  return prettyJson(input);
}
