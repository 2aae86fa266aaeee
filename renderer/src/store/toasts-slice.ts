import type { Slice } from './types.js';

export type ToastKind = 'info' | 'success' | 'error';
export interface Toast {
  id: number;
  kind: ToastKind;
  message: string;
  /** Optional link (a hash route) shown after the message, e.g. to the task just created. */
  href?: string;
  linkText?: string;
}

export interface ToastsSlice {
  toasts: Toast[];
  toast(kind: ToastKind, message: string, link?: { href: string; text: string }): number;
  dismissToast(id: number): void;
}

/** At most this many toasts at once: older ones make way (they are also in the views' own states). */
const MAX_TOASTS = 4;

export const toastsSlice: Slice<ToastsSlice> = () => (set) => {
  let nextId = 1;
  return {
    toasts: [],
    toast(kind, message, link) {
      const id = nextId++;
      const toast: Toast = link ? { id, kind, message, href: link.href, linkText: link.text } : { id, kind, message };
      set((s) => ({ toasts: [...s.toasts, toast].slice(-MAX_TOASTS) }));
      return id;
    },
    dismissToast(id) {
      set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) }));
    },
  };
};
