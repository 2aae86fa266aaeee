import { useEffect, useRef, type ReactNode } from 'react';

/**
 * A view's title bar. On arrival the title takes focus (unless something in the view already did),
 * so keyboard and screen-reader users start at the top of the new view, not in the nav.
 */
export function ViewHeader({ title, subtitle, children }: { title: string; subtitle?: ReactNode; children?: ReactNode }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    const main = document.getElementById('main');
    const active = document.activeElement;
    if (main && active && active !== main && main.contains(active)) return;
    ref.current?.focus({ preventScroll: true });
  }, []);
  return (
    <header className="view-header">
      <div className="view-heading">
        <h1 ref={ref} tabIndex={-1} className="view-title">
          {title}
        </h1>
        {subtitle && <p className="view-subtitle">{subtitle}</p>}
      </div>
      {children && <div className="view-tools">{children}</div>}
    </header>
  );
}
