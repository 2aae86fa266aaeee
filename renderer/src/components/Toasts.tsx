import { useEffect } from 'react';
import { useActions, useApp } from '../store/react.js';
import type { Toast } from '../store/toasts-slice.js';
import { Icon } from './Icon.js';

/** Errors stay until dismissed (they may need reading); confirmations fade on their own. */
const LIFETIME_MS = { info: 4000, success: 3500, error: 9000 } as const;

export function Toasts() {
  const toasts = useApp((s) => s.toasts);
  return (
    <div className="toasts" aria-live="polite" aria-relevant="additions">
      {toasts.map((t) => (
        <ToastItem key={t.id} toast={t} />
      ))}
    </div>
  );
}

function ToastItem({ toast }: { toast: Toast }) {
  const { dismissToast } = useActions();
  useEffect(() => {
    const timer = setTimeout(() => dismissToast(toast.id), LIFETIME_MS[toast.kind]);
    return () => clearTimeout(timer);
  }, [toast.id, toast.kind, dismissToast]);
  return (
    <div className={`toast toast-${toast.kind}`} role={toast.kind === 'error' ? 'alert' : 'status'}>
      <Icon name={toast.kind === 'error' ? 'alert' : toast.kind === 'success' ? 'check' : 'info'} size={16} />
      <span className="toast-message">
        {toast.message}
        {toast.href && (
          <>
            {' '}
            <a href={toast.href} onClick={() => dismissToast(toast.id)}>
              {toast.linkText}
            </a>
          </>
        )}
      </span>
      <button type="button" className="btn btn-ghost btn-icon" aria-label="Dismiss" onClick={() => dismissToast(toast.id)}>
        <Icon name="x" size={14} />
      </button>
    </div>
  );
}
