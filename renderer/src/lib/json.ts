/**
 * Pretty JSON split into typed tokens, so the view can colour keys, strings and numbers with
 * plain text nodes (never HTML). Pure, for the unit tests.
 */

export type JsonTokenKind = 'key' | 'string' | 'number' | 'boolean' | 'null' | 'punct' | 'space';
export interface JsonToken {
  kind: JsonTokenKind;
  text: string;
}

/** Past this many characters colouring costs more than it helps: the view shows plain text. */
export const HIGHLIGHT_LIMIT = 200_000;

export function prettyJson(value: unknown): string {
  if (value === undefined) return '';
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

// Strings (keys are strings followed by a colon), numbers, literals, punctuation, whitespace.
const TOKEN = /("(?:[^"\\]|\\.)*")(\s*:)?|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)|\b(true|false)\b|\b(null)\b|([{}[\],:])|(\s+)/gy;

/** Tokens of pretty-printed JSON text. Unknown characters (not from JSON.stringify) pass as punctuation. */
export function tokenizeJson(text: string): JsonToken[] {
  const tokens: JsonToken[] = [];
  let index = 0;
  TOKEN.lastIndex = 0;
  while (index < text.length) {
    TOKEN.lastIndex = index;
    const m = TOKEN.exec(text);
    if (!m) {
      push(tokens, 'punct', text[index]!);
      index++;
      continue;
    }
    if (m[1] !== undefined) {
      if (m[2] !== undefined) {
        push(tokens, 'key', m[1]);
        push(tokens, 'punct', m[2]);
      } else push(tokens, 'string', m[1]);
    } else if (m[3] !== undefined) push(tokens, 'number', m[3]);
    else if (m[4] !== undefined) push(tokens, 'boolean', m[4]);
    else if (m[5] !== undefined) push(tokens, 'null', m[5]);
    else if (m[6] !== undefined) push(tokens, 'punct', m[6]);
    else push(tokens, 'space', m[7] ?? m[0]);
    index = TOKEN.lastIndex;
  }
  return tokens;
}

/** Neighbouring tokens of the same kind merge, so the view renders fewer spans. */
function push(tokens: JsonToken[], kind: JsonTokenKind, text: string): void {
  const last = tokens[tokens.length - 1];
  if (last && last.kind === kind && (kind === 'punct' || kind === 'space')) last.text += text;
  else tokens.push({ kind, text });
}

/** Tries to parse artifact or log text as JSON; undefined when it isn't. */
export function tryParseJson(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}
