/** A short list of strings (host names, origins) edited as removable chips plus an "add" box. */
import { useId, useState } from 'react';
import { FieldError } from '../components/FieldError.js';
import { Icon } from '../components/Icon.js';

export function ListEditor({
  label,
  description,
  placeholder,
  items,
  onChange,
  validate,
}: {
  label: string;
  description: string;
  placeholder: string;
  items: string[];
  onChange: (items: string[]) => void;
  validate: (value: string) => string | undefined;
}) {
  const id = useId();
  const [draft, setDraft] = useState('');
  const [error, setError] = useState<string | undefined>();
  const add = (): void => {
    const value = draft.trim();
    if (!value) return;
    const problem = validate(value) ?? (items.includes(value) ? 'Already in the list' : undefined);
    setError(problem);
    if (problem) return;
    onChange([...items, value]);
    setDraft('');
  };
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <p className="field-desc">{description}</p>
      {items.length > 0 && (
        <ul className="chips" aria-label={label}>
          {items.map((item) => (
            <li key={item} className="chip-edit">
              <span className="mono">{item}</span>
              <button type="button" className="chip-remove" aria-label={`Remove ${item}`} onClick={() => onChange(items.filter((i) => i !== item))}>
                <Icon name="x" size={12} />
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="list-add">
        <input
          id={id}
          className="input input-mono"
          placeholder={placeholder}
          value={draft}
          spellCheck={false}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-err` : undefined}
          onChange={(e) => {
            setDraft(e.target.value);
            setError(undefined);
          }}
          onKeyDown={(e) => {
            // Enter adds to the list instead of submitting the whole settings form.
            if (e.key === 'Enter') {
              e.preventDefault();
              add();
            }
          }}
        />
        <button type="button" className="btn btn-sm" onClick={add} disabled={!draft.trim()}>
          <Icon name="plus" size={14} /> Add
        </button>
      </div>
      <FieldError id={`${id}-err`} message={error} />
    </div>
  );
}
