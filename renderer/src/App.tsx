import { useEffect, useState } from 'react';
import { Icon } from './components/Icon.js';
import { IntakeBanner } from './components/IntakeBanner.js';
import { Nav, NAV_ITEMS } from './components/Nav.js';
import { ShortcutsDialog } from './components/ShortcutsDialog.js';
import { SkeletonRows } from './components/States.js';
import { Toasts } from './components/Toasts.js';
import { useHotkeys, type HotkeyMap } from './hooks/useHotkeys.js';
import { useOpenPromptRequests } from './hooks/useOpenPromptRequests.js';
import { navigate, useRoute } from './hooks/useRoute.js';
import { connectLive } from './store/live-connection.js';
import { useActions, useApp, useAppStore } from './store/react.js';
import { AgentsView } from './views/AgentsView.js';
import { ArtifactsView } from './views/ArtifactsView.js';
import { InboxView } from './views/InboxView.js';
import { SessionScreen } from './views/SessionScreen.js';
import { SettingsView } from './views/SettingsView.js';
import { TasksView } from './views/TasksView.js';

export function App() {
  const session = useApp((s) => s.session);
  useOpenPromptRequests();
  if (session.status === 'ready') return <Shell />;
  if (session.status === 'checking' && session.first) return <Splash />;
  return <SessionScreen session={session} />;
}

/** While the very first session check runs: a calm splash, not a flash of the sign-in screen. */
function Splash() {
  return (
    <div className="splash" role="status" aria-label="Starting">
      <span className="splash-logo">
        <Icon name="logo" size={32} />
      </span>
    </div>
  );
}

function Shell() {
  const store = useAppStore();
  const { loadInbox, loadAgents, loadIntake } = useActions();
  const route = useRoute();
  const dataReady = useApp((s) => s.dataReady);
  const waiting = useApp((s) => s.inbox.total);
  const [shortcuts, setShortcuts] = useState(false);

  useEffect(() => connectLive(store), [store]);

  // The inbox count (title, nav badge), agent names (filters, cards) and whether intake is paused
  // (the banner) are needed everywhere.
  useEffect(() => {
    if (!dataReady) return;
    void loadInbox();
    void loadAgents();
    void loadIntake();
  }, [dataReady, loadInbox, loadAgents, loadIntake]);

  useEffect(() => {
    document.title = waiting > 0 ? `(${waiting}) Agent Host` : 'Agent Host';
  }, [waiting]);

  const hotkeys: HotkeyMap = { '?': () => setShortcuts(true) };
  for (const item of NAV_ITEMS) hotkeys[`g ${item.key}`] = () => navigate({ view: item.view });
  useHotkeys(hotkeys);

  return (
    <div className="app">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <Nav current={route.view} onShortcuts={() => setShortcuts(true)} />
      <main className="main" id="main" tabIndex={-1}>
        <IntakeBanner />
        {!dataReady ? (
          <div className="view">
            <SkeletonRows rows={8} label="Connecting to Agent Host" />
          </div>
        ) : route.view === 'inbox' ? (
          <InboxView taskId={route.taskId} />
        ) : route.view === 'tasks' ? (
          <TasksView taskId={route.taskId} />
        ) : route.view === 'artifacts' ? (
          <ArtifactsView artifactId={route.artifactId} />
        ) : route.view === 'agents' ? (
          <AgentsView focusSlug={route.slug} />
        ) : (
          <SettingsView />
        )}
      </main>
      <Toasts />
      <ShortcutsDialog open={shortcuts} onClose={() => setShortcuts(false)} />
    </div>
  );
}
