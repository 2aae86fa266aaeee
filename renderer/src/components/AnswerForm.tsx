/**
 * The answer to a task's prompt: a form from the prompt's JSON Schema when the agent gave one,
 * otherwise one text box whose answer is sent as `{"text": "…"}` (the convention for free-text
 * prompts; see renderer/README.md).
 */
import { useId, useState, type FormEvent } from 'react';
import type { JsonObject, Task } from '../../../main/shared/protocol.js';
import type { AnswerFailure } from '../store/inbox-slice.js';
import { useActions } from '../store/react.js';
import { Icon } from './Icon.js';
import { SchemaForm } from './SchemaForm.js';

export function AnswerForm({ task, failure, autoFocus = false }: { task: Task; failure?: AnswerFailure | undefined; autoFocus?: boolean }) {
  const { answerTask } = useActions();
  // Re-mount on a new prompt or a new failure: the form starts from the restored answer.
  const key = `${task.updated_at}:${failure?.attempt ?? 0}`;
  if (task.prompt_schema) {
    return (
      <SchemaForm
        key={key}
        schema={task.prompt_schema}
        initial={failure?.answer}
        error={failure}
        submitLabel="Send answer"
        onSubmit={(value) => answerTask(task.task_id, value)}
      />
    );
  }
  return <TextAnswer key={key} taskId={task.task_id} failure={failure} autoFocus={autoFocus} />;
}

function TextAnswer({ taskId, failure, autoFocus }: { taskId: string; failure?: AnswerFailure | undefined; autoFocus: boolean }) {
  const { answerTask } = useActions();
  const id = useId();
  const [text, setText] = useState(() => (typeof failure?.answer.text === 'string' ? failure.answer.text : ''));
  const [empty, setEmpty] = useState(false);
  const submit = (e?: FormEvent): void => {
    e?.preventDefault();
    if (text.trim() === '') {
      setEmpty(true);
      return;
    }
    const answer: JsonObject = { text };
    void answerTask(taskId, answer);
  };
  const error = empty ? 'Write an answer first.' : failure?.message;
  return (
    <form className="text-answer" onSubmit={submit} noValidate>
      <label className="sr-only" htmlFor={id}>
        Your answer
      </label>
      <textarea
        id={id}
        className="input"
        rows={3}
        value={text}
        placeholder="Type your answer…"
        autoFocus={autoFocus}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-err` : undefined}
        onChange={(e) => {
          setText(e.target.value);
          setEmpty(false);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) submit(e);
        }}
      />
      {error && (
        <p className="field-error" id={`${id}-err`} role="alert">
          <Icon name="alert" size={12} /> {error}
        </p>
      )}
      <div className="form-actions">
        <button type="submit" className="btn btn-primary">
          <Icon name="send" size={14} /> Send answer
        </button>
        <span className="form-hint">
          <kbd>Ctrl</kbd>+<kbd>Enter</kbd> to send
        </span>
      </div>
    </form>
  );
}
