/**
 * Hash routes (`#/tasks/ID`). Hash routing needs no server fallback and works the same whether
 * the control API serves the page or the desktop shell loads it, so no router library is needed.
 */

export type Route =
  /** With `taskId`: that task's prompt, brought into view with its answer form focused. */
  | { view: 'inbox'; taskId?: string }
  | { view: 'tasks'; taskId?: string }
  | { view: 'artifacts'; artifactId?: string }
  | { view: 'agents'; slug?: string }
  | { view: 'settings' };

export type ViewName = Route['view'];

export const DEFAULT_ROUTE: Route = { view: 'inbox' };

export function parseRoute(hash: string): Route {
  const path = hash.replace(/^#/, '').replace(/^\/+/, '');
  const [head = '', rawId] = path.split('/');
  const id = rawId ? safeDecode(rawId) : undefined;
  switch (head) {
    case 'inbox':
      return id ? { view: 'inbox', taskId: id } : { view: 'inbox' };
    case 'tasks':
      return id ? { view: 'tasks', taskId: id } : { view: 'tasks' };
    case 'artifacts':
      return id ? { view: 'artifacts', artifactId: id } : { view: 'artifacts' };
    case 'agents':
      return id ? { view: 'agents', slug: id } : { view: 'agents' };
    case 'settings':
      return { view: 'settings' };
    default:
      return DEFAULT_ROUTE;
  }
}

export function formatRoute(route: Route): string {
  switch (route.view) {
    case 'inbox':
      return route.taskId ? `#/inbox/${encodeURIComponent(route.taskId)}` : '#/inbox';
    case 'tasks':
      return route.taskId ? `#/tasks/${encodeURIComponent(route.taskId)}` : '#/tasks';
    case 'artifacts':
      return route.artifactId ? `#/artifacts/${encodeURIComponent(route.artifactId)}` : '#/artifacts';
    case 'agents':
      return route.slug ? `#/agents/${encodeURIComponent(route.slug)}` : '#/agents';
    default:
      return `#/${route.view}`;
  }
}

export function taskHref(taskId: string): string {
  return formatRoute({ view: 'tasks', taskId });
}

/** The inbox, showing this task's prompt. */
export function promptHref(taskId: string): string {
  return formatRoute({ view: 'inbox', taskId });
}

function safeDecode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    // A hand-edited hash with a broken escape: treat it as no id rather than crash.
    return undefined;
  }
}
