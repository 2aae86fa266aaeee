/** React access to the app store: a context (one store per app, or per test) and selector hooks. */
import { createContext, useContext, type ReactNode } from 'react';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import type { AppState, AppStore } from './app-store.js';

const StoreContext = createContext<AppStore | null>(null);

export function StoreProvider({ store, children }: { store: AppStore; children: ReactNode }) {
  return <StoreContext.Provider value={store}>{children}</StoreContext.Provider>;
}

export function useAppStore(): AppStore {
  const store = useContext(StoreContext);
  if (!store) throw new Error('useAppStore outside <StoreProvider>');
  return store;
}

/** Selects one value; the component re-renders only when it changes (Object.is). */
export function useApp<T>(selector: (state: AppState) => T): T {
  return useStore(useAppStore(), selector);
}

/** Selects several values as an object or array; re-renders when any of them changes. */
export function useAppShallow<T extends object>(selector: (state: AppState) => T): T {
  return useStore(useAppStore(), useShallow(selector));
}

/** The actions, which never change: components call them without subscribing to state. */
export function useActions(): AppState {
  return useAppStore().getState();
}
