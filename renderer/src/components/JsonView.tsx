import { useMemo, useState, type ReactNode } from 'react';
import { HIGHLIGHT_LIMIT, prettyJson, tokenizeJson } from '../lib/json.js';
import { highlightCode } from '../lib/highlight.js';
import { CopyButton } from './CopyButton.js';

/** Text longer than this is cut, with a button to show it all (a 20 MB blob would stall the page). */
const SHOW_LIMIT = 100_000;

/** Pretty JSON, coloured with spans of plain text (never HTML), with a copy button. */
export function JsonView({ value, label }: { value: unknown; label?: string }) {
  const text = useMemo(() => prettyJson(value), [value]);
  return (
    <TextBlock text={text} label={label} render={(shown) => (shown.length > HIGHLIGHT_LIMIT ? shown : <JsonTokens text={shown} />)} />
  );
}

function JsonTokens({ text }: { text: string }) {
  const tokens = useMemo(() => tokenizeJson(text), [text]);
  return (
    <>
      {tokens.map((t, i) => (t.kind === 'punct' || t.kind === 'space' ? t.text : <span key={i} className={`tok-${t.kind}`}>{t.text}</span>))}
    </>
  );
}

/** Source code with light highlighting (monospace, text nodes only). */
export function CodeView({ text, language, label }: { text: string; language: string; label?: string }) {
  return <TextBlock text={text} label={label} lineNumbers render={(shown) => <CodeTokens text={shown} language={language} />} />;
}

function CodeTokens({ text, language }: { text: string; language: string }) {
  const tokens = useMemo(() => highlightCode(text, language), [text, language]);
  return (
    <>
      {tokens.map((t, i) => (t.kind === 'plain' ? t.text : <span key={i} className={`tok-${t.kind}`}>{t.text}</span>))}
    </>
  );
}

/** Plain text in a scrollable monospace block. */
export function TextView({ text, label, wrap = true }: { text: string; label?: string; wrap?: boolean }) {
  return <TextBlock text={text} label={label} wrap={wrap} render={(shown) => shown} />;
}

function TextBlock({
  text,
  label,
  render,
  wrap = false,
  lineNumbers = false,
}: {
  text: string;
  label?: string | undefined;
  render: (shown: string) => ReactNode;
  wrap?: boolean;
  lineNumbers?: boolean;
}) {
  const [all, setAll] = useState(false);
  const cut = !all && text.length > SHOW_LIMIT;
  const shown = cut ? text.slice(0, SHOW_LIMIT) : text;
  // A file's final newline ends its last line; it does not start another one.
  const lines = useMemo(() => (lineNumbers ? shown.replace(/\n$/, '').split('\n').length : 0), [shown, lineNumbers]);
  return (
    <div className="textblock">
      <div className="textblock-tools">
        <CopyButton value={text} label={label ? `Copy ${label}` : 'Copy'} />
      </div>
      <div className="textblock-scroll">
        {lineNumbers && (
          <pre className="textblock-gutter" aria-hidden="true">
            {Array.from({ length: lines }, (_, i) => i + 1).join('\n')}
          </pre>
        )}
        <pre className={wrap ? 'textblock-pre wrap' : 'textblock-pre'} aria-label={label}>
          <code>{render(shown)}</code>
        </pre>
      </div>
      {cut && (
        <button type="button" className="btn btn-sm textblock-more" onClick={() => setAll(true)}>
          Show all {Math.round(text.length / 1024)} KB
        </button>
      )}
    </div>
  );
}
