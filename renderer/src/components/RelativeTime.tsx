import { useNow } from '../hooks/useNow.js';
import { formatRelative, formatTimestamp } from '../lib/format.js';

/** "5 min ago", kept current by the shared minute clock; the exact time is in the tooltip. */
export function RelativeTime({ iso }: { iso: string }) {
  const now = useNow();
  return (
    <time dateTime={iso} title={formatTimestamp(iso)}>
      {formatRelative(iso, now)}
    </time>
  );
}
