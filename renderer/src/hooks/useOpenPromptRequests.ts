import { useEffect } from 'react';
import { onOpenPrompt } from '../desktop.js';
import { formatRoute, type Route } from '../lib/route.js';
import { useAppStore } from '../store/react.js';
import { navigate } from './useRoute.js';

/**
 * In the desktop window: the shell asks to show a task's prompt (its tray menu, a notification
 * click). Goes to `#/inbox/<taskId>`; when that prompt is open already, brings it back into view
 * and focus. Subscribed once, for as long as the app is mounted; nothing in a plain browser.
 */
export function useOpenPromptRequests(): void {
  const store = useAppStore();
  useEffect(
    () =>
      onOpenPrompt((taskId) => {
        const route: Route = { view: 'inbox', taskId };
        if (window.location.hash === formatRoute(route)) void store.getState().showInboxPrompt(taskId);
        else navigate(route);
      }),
    [store],
  );
}
