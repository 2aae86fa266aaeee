/**
 * The task's log lines, virtualized (a 10,000-line log keeps only the visible lines in the DOM).
 * It follows new lines while you are at the bottom and stays put when you scrolled up to read.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { TaskDetail } from '../../../../main/shared/control-api.js';
import type { TaskEvent, TaskEventDataMap } from '../../../../main/shared/protocol.js';
import { Icon } from '../../components/Icon.js';
import { EmptyState } from '../../components/States.js';
import { formatClock, formatTimestamp } from '../../lib/format.js';
import { useActions, useApp } from '../../store/react.js';

const LINE_HEIGHT = 22;
/** "At the bottom" with a little slack, so sub-pixel scroll positions still follow. */
const BOTTOM_SLACK = 24;

type LogEvent = TaskEvent<'log'>;

export function LogsSection({ data }: { data: TaskDetail }) {
  const lines = useMemo(() => data.events.filter((e): e is LogEvent => e.kind === 'log'), [data.events]);
  const loadingEarlier = useApp((s) => s.detail.loadingEarlier);
  const { loadEarlierEvents } = useActions();
  const scrollRef = useRef<HTMLDivElement>(null);
  const [following, setFollowing] = useState(true);
  const virtualizer = useVirtualizer({
    count: lines.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => LINE_HEIGHT,
    overscan: 30,
  });

  // New lines while following: stay at the bottom.
  useLayoutEffect(() => {
    if (following && lines.length > 0) virtualizer.scrollToIndex(lines.length - 1, { align: 'end' });
  }, [lines.length, following, virtualizer]);

  useEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    const onScroll = (): void => setFollowing(el.scrollHeight - el.scrollTop - el.clientHeight < BOTTOM_SLACK);
    el.addEventListener('scroll', onScroll, { passive: true });
    return () => el.removeEventListener('scroll', onScroll);
  }, []);

  if (lines.length === 0 && !data.more_events_before) {
    return <EmptyState icon="terminal" title="No log lines">{!['COMPLETED', 'FAILED', 'CANCELLED'].includes(data.task.status) && <p>Lines the agent logs appear here as it writes them.</p>}</EmptyState>;
  }

  return (
    <div className="logs">
      {data.more_events_before && (
        <div className="logs-earlier">
          <button type="button" className="btn btn-sm btn-ghost" onClick={() => void loadEarlierEvents()} disabled={loadingEarlier}>
            {loadingEarlier ? 'Loading…' : 'Load earlier lines'}
          </button>
        </div>
      )}
      <div className="logs-scroll" ref={scrollRef} tabIndex={0} role="log" aria-label={`Log, ${lines.length} lines`} aria-live="off">
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((v) => {
            const line = lines[v.index]!;
            const d = line.data as TaskEventDataMap['log'];
            return (
              <div key={line.id} className={`log-line log-${d.level.toLowerCase()}`} style={{ height: v.size, transform: `translateY(${v.start}px)` }}>
                <time className="log-time" dateTime={d.timestamp} title={formatTimestamp(d.timestamp)}>
                  {formatClock(d.timestamp)}
                </time>
                <span className="log-level">{d.level}</span>
                <span className="log-message">{d.message}</span>
              </div>
            );
          })}
        </div>
      </div>
      {!following && (
        <button
          type="button"
          className="btn btn-sm logs-follow"
          onClick={() => {
            setFollowing(true);
            virtualizer.scrollToIndex(lines.length - 1, { align: 'end' });
          }}
        >
          <Icon name="chevronDown" size={14} /> Follow new lines
        </button>
      )}
    </div>
  );
}
