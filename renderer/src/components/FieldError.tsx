import { Icon } from './Icon.js';

/** A field's error line, referenced by the input's aria-describedby. */
export function FieldError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p className="field-error" id={id}>
      <Icon name="alert" size={12} /> {message}
    </p>
  );
}
