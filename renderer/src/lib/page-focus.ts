/**
 * Whether the person is looking at this page right now: its tab is shown and its window has the
 * focus. A page in a background tab, or behind another window, is not "in front" even when it is
 * partly visible, since something else has the person's attention.
 *
 * Read through globalThis, not the DOM types, so the store that calls it also runs in the unit
 * tests under Node; there is no document there, which counts as in front (a toast, never a
 * notification by accident). The tests pass their own function instead.
 */
export function pageInFront(): boolean {
  const doc = (globalThis as { document?: { hidden?: boolean; hasFocus?: () => boolean } }).document;
  if (!doc) return true;
  if (doc.hidden === true) return false;
  return typeof doc.hasFocus === 'function' ? doc.hasFocus() : true;
}
