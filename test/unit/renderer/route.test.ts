import { describe, expect, it } from 'vitest';
import { formatRoute, parseRoute, promptHref, taskHref, type Route } from '../../../renderer/src/lib/route.js';

describe('hash routes', () => {
  it('reads a task’s prompt in the inbox, and the inbox itself', () => {
    expect(parseRoute('#/inbox/0b6f2c1e-aa')).toEqual({ view: 'inbox', taskId: '0b6f2c1e-aa' });
    expect(parseRoute('#/inbox')).toEqual({ view: 'inbox' });
    expect(parseRoute('#/inbox/')).toEqual({ view: 'inbox' });
    expect(parseRoute('')).toEqual({ view: 'inbox' });
  });

  it('writes them back, escaping the id', () => {
    expect(formatRoute({ view: 'inbox', taskId: 'abc-123' })).toBe('#/inbox/abc-123');
    expect(formatRoute({ view: 'inbox' })).toBe('#/inbox');
    expect(promptHref('a b/c')).toBe('#/inbox/a%20b%2Fc');
    expect(taskHref('abc')).toBe('#/tasks/abc');
  });

  it('round-trips every kind of route', () => {
    const routes: Route[] = [
      { view: 'inbox' },
      { view: 'inbox', taskId: 'a b/c?' },
      { view: 'tasks' },
      { view: 'tasks', taskId: 't-1' },
      { view: 'artifacts', artifactId: 'x%y' },
      { view: 'agents', slug: 'echo' },
      { view: 'settings' },
    ];
    for (const route of routes) expect(parseRoute(formatRoute(route))).toEqual(route);
  });

  it('treats a broken escape as no id, and an unknown view as the inbox', () => {
    expect(parseRoute('#/inbox/%E0%A4%A')).toEqual({ view: 'inbox' });
    expect(parseRoute('#/nowhere/1')).toEqual({ view: 'inbox' });
  });
});
