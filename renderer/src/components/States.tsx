import type { ReactNode } from 'react';
import { Icon, type IconName } from './Icon.js';

/** A designed empty state: what this place is for and, where there is one, what to do next. */
export function EmptyState({ icon, title, children }: { icon: IconName; title: string; children?: ReactNode }) {
  return (
    <div className="state state-empty" role="status">
      <div className="state-icon">
        <Icon name={icon} size={28} />
      </div>
      <h2 className="state-title">{title}</h2>
      {children && <div className="state-body">{children}</div>}
    </div>
  );
}

export function ErrorState({ title = 'Something went wrong', message, onRetry }: { title?: string; message: string; onRetry?: () => void }) {
  return (
    <div className="state state-error" role="alert">
      <div className="state-icon">
        <Icon name="alert" size={28} />
      </div>
      <h2 className="state-title">{title}</h2>
      <p className="state-body">{message}</p>
      {onRetry && (
        <button type="button" className="btn" onClick={onRetry}>
          <Icon name="refresh" size={14} /> Try again
        </button>
      )}
    </div>
  );
}

/** Skeleton rows while a list loads: the layout appears at once and doesn't jump when data lands. */
export function SkeletonRows({ rows = 6, label = 'Loading' }: { rows?: number; label?: string }) {
  return (
    <div className="skeleton-list" role="status" aria-label={label}>
      {Array.from({ length: rows }, (_, i) => (
        <div className="skeleton-row" key={i} style={{ opacity: 1 - i * (0.8 / rows) }}>
          <span className="skeleton skeleton-chip" />
          <span className="skeleton skeleton-text" />
          <span className="skeleton skeleton-short" />
        </div>
      ))}
    </div>
  );
}

export function Spinner({ label = 'Loading' }: { label?: string }) {
  return <span className="spinner" role="status" aria-label={label} />;
}
