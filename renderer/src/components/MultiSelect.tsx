/**
 * A filter button that opens a checklist (status, agent). The button shows what is chosen, so the
 * active filters are visible without opening it. Esc or a click outside closes it.
 */
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Icon } from './Icon.js';

export interface Option<V extends string> {
  value: V;
  label: string;
  /** Shown before the label (e.g. a status dot). */
  adornment?: ReactNode;
}

export function MultiSelect<V extends string>({
  label,
  options,
  selected,
  onChange,
}: {
  label: string;
  options: readonly Option<V>[];
  selected: readonly V[];
  onChange: (selected: V[]) => void;
}) {
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelId = useId();

  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent): void => {
      if (!rootRef.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [open]);

  const summary =
    selected.length === 0
      ? 'All'
      : selected.length === 1
        ? (options.find((o) => o.value === selected[0])?.label ?? selected[0])
        : `${selected.length} selected`;

  const toggle = (value: V): void => {
    onChange(selected.includes(value) ? selected.filter((v) => v !== value) : [...selected, value]);
  };

  return (
    <div
      className="multiselect"
      ref={rootRef}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && open) {
          e.stopPropagation();
          setOpen(false);
          buttonRef.current?.focus();
        }
      }}
    >
      <button
        ref={buttonRef}
        type="button"
        className={`btn btn-filter${selected.length > 0 ? ' is-active' : ''}`}
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((o) => !o)}
      >
        <span className="btn-filter-label">{label}:</span> {summary}
        <Icon name="chevronDown" size={14} />
      </button>
      {open && (
        <div className="popover" id={panelId} role="group" aria-label={`${label} filter`}>
          {options.length === 0 && <p className="popover-empty">Nothing to choose yet.</p>}
          {options.map((o, i) => (
            <label key={o.value} className="popover-option">
              <input
                type="checkbox"
                className="checkbox"
                checked={selected.includes(o.value)}
                onChange={() => toggle(o.value)}
                autoFocus={i === 0}
              />
              {o.adornment}
              <span>{o.label}</span>
            </label>
          ))}
          {selected.length > 0 && (
            <button type="button" className="btn btn-ghost btn-sm popover-clear" onClick={() => onChange([])}>
              Clear
            </button>
          )}
        </div>
      )}
    </div>
  );
}
