/**
 * The inputs of a generated form, one component per field kind. Each gets its raw value and
 * reports a new one; errors come from the form, keyed by path ("a.b", "tags.2").
 */
import type { FocusEvent, KeyboardEvent } from 'react';
import {
  emptyItem,
  fieldHint,
  type ArrayField,
  type Field,
  type FieldErrors,
  type ItemField,
  type ObjectField,
  type RawObject,
  type RawValue,
} from '../lib/schema-form.js';
import { Icon } from './Icon.js';

export interface FieldContext {
  idPrefix: string;
  errors: FieldErrors;
  /** Whether to show the error at a path (after a submit, or once the field was left for another field). */
  visible: (path: string) => boolean;
  onBlur: (path: string, event: FocusEvent) => void;
  /** Ctrl/⌘+Enter in any input submits the form. */
  onSubmitShortcut: () => void;
  disabled: boolean;
}

export function fieldId(idPrefix: string, path: string): string {
  return `${idPrefix}-${path.replace(/[^A-Za-z0-9_-]/g, '-')}`;
}

export function FieldList({ fields, raw, onChange, path, ctx }: { fields: Field[]; raw: RawObject; onChange: (raw: RawObject) => void; path: string; ctx: FieldContext }) {
  return (
    <>
      {fields.map((field) => {
        const p = path ? `${path}.${field.key}` : field.key;
        return (
          <FieldInput
            key={field.key}
            field={field}
            value={raw[field.key]}
            path={p}
            ctx={ctx}
            onChange={(v) => onChange({ ...raw, [field.key]: v })}
          />
        );
      })}
    </>
  );
}

function FieldInput({ field, value, path, ctx, onChange }: { field: Field; value: RawValue | undefined; path: string; ctx: FieldContext; onChange: (v: RawValue) => void }) {
  if (field.kind === 'object') return <ObjectInput field={field} value={value} path={path} ctx={ctx} onChange={onChange} />;
  if (field.kind === 'boolean') return <BooleanInput field={field} value={value === true} path={path} ctx={ctx} onChange={onChange} />;
  const id = fieldId(ctx.idPrefix, path);
  const error = ctx.visible(path) ? ctx.errors[path] : undefined;
  const describedBy = [field.description ? `${id}-desc` : '', error ? `${id}-err` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field${error ? ' field-invalid' : ''}`}>
      <label className="field-label" htmlFor={field.kind === 'array' ? undefined : id} id={`${id}-label`}>
        {field.label}
        {field.required ? (
          <span className="field-required" aria-hidden="true">
            {' '}*
          </span>
        ) : (
          <span className="field-optional"> optional</span>
        )}
      </label>
      {field.description && (
        <p className="field-desc" id={`${id}-desc`}>
          {field.description}
        </p>
      )}
      {field.kind === 'array' ? (
        <ArrayInput field={field} value={Array.isArray(value) ? value : []} path={path} ctx={ctx} onChange={onChange} labelledBy={`${id}-label`} />
      ) : field.kind === 'json' ? (
        <textarea
          id={id}
          className="input input-mono"
          rows={5}
          spellCheck={false}
          value={typeof value === 'string' ? value : ''}
          placeholder={fieldHint(field)}
          aria-required={field.required}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          disabled={ctx.disabled}
          onChange={(e) => onChange(e.target.value)}
          onBlur={(e) => ctx.onBlur(path, e)}
          onKeyDown={(e) => submitOnModEnter(e, ctx)}
        />
      ) : (
        <PrimitiveInput
          field={field}
          id={id}
          value={value}
          required={field.required}
          invalid={Boolean(error)}
          describedBy={describedBy}
          ctx={ctx}
          onChange={onChange}
          onBlur={(e) => ctx.onBlur(path, e)}
        />
      )}
      {error && (
        <p className="field-error" id={`${id}-err`}>
          <Icon name="alert" size={12} /> {error}
        </p>
      )}
    </div>
  );
}

function PrimitiveInput({
  field,
  id,
  value,
  required,
  invalid,
  describedBy,
  ctx,
  onChange,
  onBlur,
  ariaLabel,
}: {
  field: ItemField;
  id: string;
  value: RawValue | undefined;
  required: boolean;
  invalid: boolean;
  describedBy: string | undefined;
  ctx: FieldContext;
  onChange: (v: RawValue) => void;
  onBlur: (event: FocusEvent) => void;
  ariaLabel?: string;
}) {
  const common = {
    id,
    'aria-required': required,
    'aria-invalid': invalid ? true : undefined,
    'aria-describedby': describedBy,
    'aria-label': ariaLabel,
    disabled: ctx.disabled,
    onBlur,
  };
  const text = typeof value === 'string' ? value : '';
  switch (field.kind) {
    case 'boolean':
      return <input type="checkbox" className="checkbox" {...common} checked={value === true} onChange={(e) => onChange(e.target.checked)} />;
    case 'enum':
      return (
        <select className="input select" {...common} value={text} onChange={(e) => onChange(e.target.value)}>
          <option value="">{required ? 'Choose…' : '—'}</option>
          {field.options.map((option, i) => (
            <option key={i} value={String(i)}>
              {option === null ? 'null' : String(option)}
            </option>
          ))}
        </select>
      );
    case 'number':
    case 'integer':
      return (
        <input
          type="text"
          className="input input-number"
          inputMode={field.kind === 'integer' ? 'numeric' : 'decimal'}
          autoComplete="off"
          placeholder={fieldHint(field)}
          {...common}
          value={text}
          onChange={(e) => onChange(e.target.value)}
          onKeyDown={(e) => submitOnModEnter(e, ctx)}
        />
      );
    case 'string':
      if (field.multiline) {
        return (
          <textarea
            className="input"
            rows={4}
            placeholder={fieldHint(field)}
            {...common}
            value={text}
            onChange={(e) => onChange(e.target.value)}
            onKeyDown={(e) => submitOnModEnter(e, ctx)}
          />
        );
      }
      return (
        <input
          type={field.format === 'email' ? 'email' : field.format === 'uri' || field.format === 'url' ? 'url' : 'text'}
          className="input"
          autoComplete="off"
          placeholder={fieldHint(field)}
          {...common}
          value={text}
          onChange={(e) => onChange(e.target.value)}
          onKeyDown={(e) => submitOnModEnter(e, ctx)}
        />
      );
  }
}

function BooleanInput({ field, value, path, ctx, onChange }: { field: Field; value: boolean; path: string; ctx: FieldContext; onChange: (v: RawValue) => void }) {
  const id = fieldId(ctx.idPrefix, path);
  const error = ctx.visible(path) ? ctx.errors[path] : undefined;
  return (
    <div className={`field field-check${error ? ' field-invalid' : ''}`}>
      <label className="check-label" htmlFor={id}>
        <input
          type="checkbox"
          className="checkbox"
          id={id}
          checked={value}
          disabled={ctx.disabled}
          aria-describedby={field.description ? `${id}-desc` : undefined}
          onChange={(e) => onChange(e.target.checked)}
          onBlur={(e) => ctx.onBlur(path, e)}
        />
        <span>{field.label}</span>
      </label>
      {field.description && (
        <p className="field-desc field-desc-check" id={`${id}-desc`}>
          {field.description}
        </p>
      )}
      {error && <p className="field-error">{error}</p>}
    </div>
  );
}

function ArrayInput({
  field,
  value,
  path,
  ctx,
  onChange,
  labelledBy,
}: {
  field: ArrayField;
  value: RawValue[];
  path: string;
  ctx: FieldContext;
  onChange: (v: RawValue) => void;
  labelledBy: string;
}) {
  const atMax = field.maxItems !== undefined && value.length >= field.maxItems;
  return (
    <div className="array-input" role="group" aria-labelledby={labelledBy}>
      {value.length === 0 && <p className="array-empty">No items yet.</p>}
      {value.map((item, i) => {
        const itemPath = `${path}.${i}`;
        const id = fieldId(ctx.idPrefix, itemPath);
        const error = ctx.visible(itemPath) ? ctx.errors[itemPath] : undefined;
        return (
          <div className="array-item" key={i}>
            <div className="array-row">
              <PrimitiveInput
                field={field.item}
                id={id}
                value={item}
                required
                invalid={Boolean(error)}
                describedBy={error ? `${id}-err` : undefined}
                ariaLabel={`${field.label}, item ${i + 1}`}
                ctx={ctx}
                onChange={(v) => onChange(value.map((old, j) => (j === i ? v : old)))}
                onBlur={(e) => ctx.onBlur(itemPath, e)}
              />
              <button
                type="button"
                className="btn btn-ghost btn-icon"
                aria-label={`Remove item ${i + 1}`}
                disabled={ctx.disabled}
                onClick={() => onChange(value.filter((_, j) => j !== i))}
              >
                <Icon name="x" size={14} />
              </button>
            </div>
            {error && (
              <p className="field-error" id={`${id}-err`}>
                {error}
              </p>
            )}
          </div>
        );
      })}
      <button type="button" className="btn btn-sm" disabled={ctx.disabled || atMax} onClick={() => onChange([...value, emptyItem(field.item)])}>
        <Icon name="plus" size={14} /> Add item
      </button>
    </div>
  );
}

function ObjectInput({ field, value, path, ctx, onChange }: { field: ObjectField; value: RawValue | undefined; path: string; ctx: FieldContext; onChange: (v: RawValue) => void }) {
  const raw: RawObject = typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {};
  const error = ctx.visible(path) ? ctx.errors[path] : undefined;
  return (
    <fieldset className="fieldset">
      <legend className="field-label">
        {field.label}
        {field.required ? <span className="field-required" aria-hidden="true"> *</span> : <span className="field-optional"> optional</span>}
      </legend>
      {field.description && <p className="field-desc">{field.description}</p>}
      <FieldList fields={field.fields} raw={raw} onChange={onChange} path={path} ctx={ctx} />
      {error && <p className="field-error">{error}</p>}
    </fieldset>
  );
}

function submitOnModEnter(e: KeyboardEvent, ctx: FieldContext): void {
  if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
    e.preventDefault();
    ctx.onSubmitShortcut();
  }
}
