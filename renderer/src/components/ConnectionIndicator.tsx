import { useApp } from '../store/react.js';

const TEXT = {
  live: { label: 'Live', title: 'Receiving changes as they happen' },
  connecting: { label: 'Connecting…', title: 'Opening the live connection to Agent Host' },
  reconnecting: { label: 'Reconnecting…', title: 'The live connection dropped; catching up as soon as it is back' },
} as const;

/** A small dot in the nav: green when live, pulsing amber while the stream reconnects. */
export function ConnectionIndicator() {
  const state = useApp((s) => s.connection);
  const t = TEXT[state];
  return (
    <div className={`conn conn-${state}`} title={t.title} role="status" aria-live="polite">
      <span className="conn-dot" aria-hidden="true" />
      <span className="conn-label">{t.label}</span>
    </div>
  );
}
