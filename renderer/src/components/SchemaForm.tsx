/**
 * A form generated from a JSON Schema (see lib/schema-form.ts), with a JSON editor for schemas
 * the generator cannot express and an "Edit as JSON" switch for people who prefer typing JSON.
 * Errors show after the first submit (and for fields already left), then update as you type.
 */
import { useId, useMemo, useState, type FormEvent, type ReactNode } from 'react';
import type { JsonObject } from '../../../main/shared/protocol.js';
import { errorMessage, isApiError } from '../api/http.js';
import {
  buildFormModel,
  collectValues,
  errorsFromDetails,
  initialValues,
  parseJsonObject,
  rawFromJson,
  type Field,
  type FieldErrors,
  type RawObject,
} from '../lib/schema-form.js';
import { Icon, type IconName } from './Icon.js';
import { FieldList, fieldId, type FieldContext } from './SchemaFields.js';

export interface SchemaFormProps {
  schema: unknown;
  /** Values to start from (overrides the schema's defaults), e.g. an answer to correct. */
  initial?: JsonObject | undefined;
  submitLabel: string;
  submitIcon?: IconName;
  /** Throw (an ApiError) to keep the form and show the error; INVALID_* details mark their fields. */
  onSubmit: (value: JsonObject) => Promise<unknown>;
  /** An error from outside (e.g. a failed answer restored into the inbox). */
  error?: { message: string; details: readonly unknown[] } | undefined;
  /** Extra buttons beside submit. */
  actions?: ReactNode;
  /** After a successful submit, start again from the initial values (for forms used repeatedly). */
  resetOnSuccess?: boolean;
}

export function SchemaForm({ schema, initial, submitLabel, submitIcon = 'send', onSubmit, error, actions, resetOnSuccess = false }: SchemaFormProps) {
  const idPrefix = useId().replace(/:/g, '');
  const model = useMemo(() => buildFormModel(schema), [schema]);
  const fields = useMemo<Field[]>(() => (model.kind === 'form' ? model.fields : []), [model]);
  const start = (): RawObject => initialValues(fields, schema, initial);
  const [raw, setRaw] = useState<RawObject>(start);
  const [mode, setMode] = useState<'form' | 'json'>(model.kind === 'json' ? 'json' : 'form');
  const [jsonText, setJsonText] = useState(() => (model.kind === 'json' ? JSON.stringify(initial ?? {}, null, 2) : ''));
  const [submitted, setSubmitted] = useState(Boolean(error));
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());
  const [serverErrors, setServerErrors] = useState<FieldErrors>(() => (error ? errorsFromDetails(error.details) : {}));
  const [formError, setFormError] = useState<string | undefined>(error?.message);
  const [jsonError, setJsonError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  const collected = useMemo(() => collectValues(fields, raw), [fields, raw]);
  const errors: FieldErrors = { ...serverErrors, ...collected.errors };

  const changeRaw = (next: RawObject): void => {
    setRaw(next);
    // A field's server error no longer applies once it is edited; simplest is to let all go.
    if (Object.keys(serverErrors).length > 0) setServerErrors({});
  };

  const send = async (value: JsonObject): Promise<void> => {
    setBusy(true);
    setFormError(undefined);
    try {
      await onSubmit(value);
      if (resetOnSuccess) {
        setRaw(start());
        setSubmitted(false);
        setTouched(new Set());
      }
    } catch (err) {
      setFormError(errorMessage(err));
      if (isApiError(err)) {
        const mapped = errorsFromDetails(err.details);
        setServerErrors(mapped);
        focusFirst(Object.keys(mapped));
      }
    } finally {
      setBusy(false);
    }
  };

  const focusFirst = (paths: string[]): void => {
    const first = paths.find((p) => p !== '');
    if (first === undefined) return;
    // After React has rendered the messages, so the screen reader reads the field with its error.
    requestAnimationFrame(() => document.getElementById(fieldId(idPrefix, first))?.focus());
  };

  const submit = (e?: FormEvent): void => {
    e?.preventDefault();
    if (busy) return;
    if (mode === 'json') {
      const parsed = parseJsonObject(jsonText);
      setJsonError(parsed.ok ? undefined : parsed.message);
      if (parsed.ok) void send(parsed.value);
      return;
    }
    setSubmitted(true);
    if (!collected.ok) {
      setFormError(`Please correct ${Object.keys(collected.errors).length === 1 ? 'the highlighted field' : 'the highlighted fields'}.`);
      focusFirst(orderedPaths(fields, collected.errors));
      return;
    }
    void send(collected.value);
  };

  const switchMode = (): void => {
    if (mode === 'form') {
      setJsonText(JSON.stringify(collected.value, null, 2));
      setJsonError(undefined);
      setMode('json');
      return;
    }
    const parsed = parseJsonObject(jsonText);
    if (!parsed.ok) {
      setJsonError(`${parsed.message}. Fix it to go back to the form.`);
      return;
    }
    setRaw(rawFromJson(fields, parsed.value));
    setMode('form');
  };

  const ctx: FieldContext = {
    idPrefix,
    errors,
    visible: (path) => submitted || touched.has(path) || path in serverErrors,
    onBlur: (path, event) => {
      // Only when moving on to another field: an error appearing as you press "Send" would shift
      // the button under the pointer and swallow the click.
      const next = event.relatedTarget;
      if (!(next instanceof HTMLElement) || !next.matches('input, select, textarea')) return;
      setTouched((t) => (t.has(path) ? t : new Set(t).add(path)));
    },
    onSubmitShortcut: () => submit(),
    disabled: busy,
  };

  return (
    <form className="schema-form" onSubmit={submit} noValidate>
      {mode === 'form' ? (
        <FieldList fields={fields} raw={raw} onChange={changeRaw} path="" ctx={ctx} />
      ) : (
        <div className={`field${jsonError ? ' field-invalid' : ''}`}>
          <label className="field-label" htmlFor={`${idPrefix}-json`}>
            JSON
          </label>
          {model.kind === 'json' && <p className="field-desc">{model.reason} Enter the value as JSON.</p>}
          <textarea
            id={`${idPrefix}-json`}
            className="input input-mono"
            rows={Math.min(16, Math.max(5, jsonText.split('\n').length + 1))}
            spellCheck={false}
            value={jsonText}
            disabled={busy}
            aria-invalid={jsonError ? true : undefined}
            aria-describedby={jsonError ? `${idPrefix}-json-err` : undefined}
            onChange={(e) => {
              setJsonText(e.target.value);
              if (jsonError) setJsonError(undefined);
            }}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) submit(e);
            }}
          />
          {jsonError && (
            <p className="field-error" id={`${idPrefix}-json-err`}>
              <Icon name="alert" size={12} /> {jsonError}
            </p>
          )}
        </div>
      )}
      {formError && (
        <div className="form-error" role="alert">
          <Icon name="alert" size={14} />
          <span>{formError}</span>
        </div>
      )}
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={busy}>
          <Icon name={submitIcon} size={14} />
          {busy ? 'Sending…' : submitLabel}
        </button>
        {actions}
        <span className="form-actions-spacer" />
        {model.kind === 'form' && (
          <button type="button" className="btn btn-ghost btn-sm" onClick={switchMode} disabled={busy}>
            <Icon name={mode === 'form' ? 'braces' : 'tasks'} size={14} />
            {mode === 'form' ? 'Edit as JSON' : 'Back to form'}
          </button>
        )}
      </div>
    </form>
  );
}

/** Error paths in the order their fields appear, so focus goes to the topmost problem. */
function orderedPaths(fields: Field[], errors: FieldErrors): string[] {
  const keys = Object.keys(errors);
  const order = (path: string): number => {
    const top = path.split('.')[0];
    const index = fields.findIndex((f) => f.key === top);
    return index < 0 ? Number.MAX_SAFE_INTEGER : index;
  };
  return keys.sort((a, b) => order(a) - order(b) || a.localeCompare(b));
}
