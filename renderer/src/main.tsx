import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createHttpApi } from './api/client.js';
import { App } from './App.js';
import { createAppStore, type AppStore } from './store/app-store.js';
import { StoreProvider } from './store/react.js';
import './styles/theme.css';
import './styles/base.css';
import './styles/components.css';
import './styles/views.css';

// The API reports a lost session to the store built on it (called only after both exist).
const api = createHttpApi({ onUnauthorized: () => store.getState().sessionEnded() });
const store: AppStore = createAppStore(api);

// The one-time token from the link the host printed. Taken out of the address bar at once, so it
// is not left in the history, bookmarks or a screenshot; it is spent by the exchange anyway.
const url = new URL(window.location.href);
const token = url.searchParams.get('token') ?? undefined;
if (token !== undefined) {
  url.searchParams.delete('token');
  window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
}
void store.getState().startSession(token);

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');
createRoot(root).render(
  <StrictMode>
    <StoreProvider store={store}>
      <App />
    </StoreProvider>
  </StrictMode>,
);
