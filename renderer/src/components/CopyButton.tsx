import { useEffect, useState } from 'react';
import { Icon } from './Icon.js';

/** Copies a value; the icon turns into a check for a moment so people know it worked. */
export function CopyButton({ value, label = 'Copy', showLabel = false }: { value: string; label?: string; showLabel?: boolean }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), 1600);
    return () => clearTimeout(timer);
  }, [state]);
  const copy = async (): Promise<void> => {
    try {
      await navigator.clipboard.writeText(value);
      setState('copied');
    } catch {
      // Clipboard access can be refused (insecure context, permissions): say so instead of failing silently.
      setState('failed');
    }
  };
  const text = state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed' : label;
  return (
    <button type="button" className={`btn btn-ghost btn-icon${showLabel ? ' btn-sm' : ''} copy-${state}`} onClick={() => void copy()} aria-label={`${label}: ${value}`} title={text}>
      <Icon name={state === 'copied' ? 'check' : 'copy'} size={14} />
      {showLabel && <span>{text}</span>}
      <span className="sr-only" aria-live="polite">
        {state === 'idle' ? '' : text}
      </span>
    </button>
  );
}
