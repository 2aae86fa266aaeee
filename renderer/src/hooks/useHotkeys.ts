import { useEffect, useRef } from 'react';

/**
 * Global keyboard shortcuts: single keys ("?", "/") and two-key sequences ("g i"). Ignored while
 * typing in a field, and with Ctrl/Meta/Alt held (those belong to the browser).
 */
export type HotkeyMap = Record<string, (event: KeyboardEvent) => void>;

const SEQUENCE_MS = 1200;

export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag === 'INPUT') {
    const type = (target as HTMLInputElement).type;
    return !['checkbox', 'radio', 'button', 'submit', 'reset'].includes(type);
  }
  return false;
}

export function useHotkeys(map: HotkeyMap): void {
  const mapRef = useRef(map);
  useEffect(() => {
    mapRef.current = map;
  });
  useEffect(() => {
    let prefix = '';
    let prefixAt = 0;
    const onKey = (event: KeyboardEvent): void => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
      if (isTypingTarget(event.target)) return;
      // A modal dialog owns the keyboard while it is open.
      if (document.querySelector('dialog[open]')) return;
      const key = event.key;
      const combo = prefix && Date.now() - prefixAt < SEQUENCE_MS ? `${prefix} ${key}` : key;
      prefix = '';
      const handler = mapRef.current[combo];
      if (handler) {
        event.preventDefault();
        handler(event);
        return;
      }
      if (Object.keys(mapRef.current).some((k) => k.startsWith(`${key} `))) {
        prefix = key;
        prefixAt = Date.now();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
