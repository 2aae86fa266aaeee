import { formatCount } from '../lib/format.js';
import type { ViewName } from '../lib/route.js';
import { formatRoute } from '../lib/route.js';
import { useApp } from '../store/react.js';
import { ConnectionIndicator } from './ConnectionIndicator.js';
import { Icon, type IconName } from './Icon.js';
import { IntakeIndicator } from './IntakeBanner.js';

export const NAV_ITEMS: readonly { view: ViewName; label: string; icon: IconName; key: string }[] = [
  { view: 'inbox', label: 'Inbox', icon: 'inbox', key: 'i' },
  { view: 'tasks', label: 'Tasks', icon: 'tasks', key: 't' },
  { view: 'artifacts', label: 'Artifacts', icon: 'file', key: 'f' },
  { view: 'agents', label: 'Agents', icon: 'agents', key: 'a' },
  { view: 'settings', label: 'Settings', icon: 'settings', key: 's' },
];

export function Nav({ current, onShortcuts }: { current: ViewName; onShortcuts: () => void }) {
  const waiting = useApp((s) => s.inbox.total);
  const version = useApp((s) => (s.session.status === 'ready' ? s.session.info.version : ''));
  return (
    <nav className="nav" aria-label="Main">
      <div className="nav-brand">
        <span className="nav-logo">
          <Icon name="logo" size={18} />
        </span>
        <span className="nav-name">Agent Host</span>
      </div>
      <ul className="nav-list">
        {NAV_ITEMS.map((item) => (
          <li key={item.view}>
            <a
              href={formatRoute({ view: item.view })}
              className={`nav-link${current === item.view ? ' is-current' : ''}`}
              aria-current={current === item.view ? 'page' : undefined}
              title={`${item.label} (g then ${item.key})`}
            >
              <Icon name={item.icon} size={17} />
              <span className="nav-label">{item.label}</span>
              {item.view === 'inbox' && waiting > 0 && (
                <span className="badge" aria-label={`${formatCount(waiting)} waiting for an answer`}>
                  {formatCount(waiting)}
                </span>
              )}
            </a>
          </li>
        ))}
      </ul>
      <div className="nav-footer">
        <IntakeIndicator />
        <ConnectionIndicator />
        <button type="button" className="nav-shortcuts" onClick={onShortcuts} title="Keyboard shortcuts (?)">
          <Icon name="keyboard" size={14} />
          <span>Shortcuts</span>
          <kbd>?</kbd>
        </button>
        {version && <div className="nav-version">v{version}</div>}
      </div>
    </nav>
  );
}
