/**
 * Light syntax highlighting: comments, strings, numbers and keywords, for reading an agent's
 * script at a glance. Not a parser (a `#` inside a multi-line string may be taken for a comment);
 * it only picks colours for text that is always rendered as text nodes.
 */

export type CodeTokenKind = 'plain' | 'comment' | 'string' | 'number' | 'keyword';
export interface CodeToken {
  kind: CodeTokenKind;
  text: string;
}

const KEYWORDS: Record<string, string[]> = {
  python: ['and', 'as', 'assert', 'async', 'await', 'break', 'class', 'continue', 'def', 'del', 'elif', 'else', 'except', 'False', 'finally', 'for', 'from', 'global', 'if', 'import', 'in', 'is', 'lambda', 'None', 'nonlocal', 'not', 'or', 'pass', 'raise', 'return', 'True', 'try', 'while', 'with', 'yield'],
  javascript: ['async', 'await', 'break', 'case', 'catch', 'class', 'const', 'continue', 'default', 'delete', 'do', 'else', 'export', 'extends', 'false', 'finally', 'for', 'from', 'function', 'if', 'import', 'in', 'instanceof', 'let', 'new', 'null', 'of', 'return', 'static', 'super', 'switch', 'this', 'throw', 'true', 'try', 'typeof', 'undefined', 'var', 'void', 'while', 'yield'],
  shell: ['if', 'then', 'else', 'elif', 'fi', 'for', 'while', 'do', 'done', 'case', 'esac', 'in', 'function', 'return', 'export', 'local', 'echo', 'set'],
  go: ['break', 'case', 'chan', 'const', 'continue', 'default', 'defer', 'else', 'fallthrough', 'for', 'func', 'go', 'goto', 'if', 'import', 'interface', 'map', 'package', 'range', 'return', 'select', 'struct', 'switch', 'type', 'var', 'nil', 'true', 'false'],
  rust: ['as', 'async', 'await', 'break', 'const', 'continue', 'crate', 'else', 'enum', 'extern', 'false', 'fn', 'for', 'if', 'impl', 'in', 'let', 'loop', 'match', 'mod', 'move', 'mut', 'pub', 'ref', 'return', 'self', 'Self', 'static', 'struct', 'super', 'trait', 'true', 'type', 'unsafe', 'use', 'where', 'while'],
  sql: ['select', 'from', 'where', 'insert', 'into', 'values', 'update', 'set', 'delete', 'create', 'table', 'join', 'left', 'right', 'inner', 'outer', 'on', 'group', 'by', 'order', 'limit', 'and', 'or', 'not', 'null', 'as', 'distinct', 'having'],
};
KEYWORDS.typescript = [...KEYWORDS.javascript!, 'interface', 'type', 'enum', 'implements', 'private', 'public', 'protected', 'readonly', 'abstract', 'as', 'satisfies'];
KEYWORDS.java = ['abstract', 'boolean', 'break', 'case', 'catch', 'class', 'continue', 'default', 'do', 'else', 'extends', 'false', 'final', 'finally', 'for', 'if', 'implements', 'import', 'instanceof', 'int', 'interface', 'new', 'null', 'package', 'private', 'protected', 'public', 'return', 'static', 'super', 'switch', 'this', 'throw', 'throws', 'true', 'try', 'void', 'while'];
KEYWORDS.c = ['break', 'case', 'char', 'const', 'continue', 'default', 'do', 'double', 'else', 'enum', 'extern', 'float', 'for', 'if', 'include', 'int', 'long', 'return', 'short', 'sizeof', 'static', 'struct', 'switch', 'typedef', 'union', 'unsigned', 'void', 'while'];
KEYWORDS.cpp = [...KEYWORDS.c, 'class', 'namespace', 'new', 'delete', 'public', 'private', 'protected', 'template', 'this', 'true', 'false', 'nullptr', 'auto', 'using'];
KEYWORDS.ruby = ['def', 'end', 'if', 'elsif', 'else', 'unless', 'while', 'until', 'for', 'in', 'do', 'return', 'class', 'module', 'require', 'true', 'false', 'nil', 'self', 'yield', 'begin', 'rescue', 'ensure'];

const HASH_COMMENT = new Set(['python', 'shell', 'ruby', 'yaml', 'toml', 'r', 'perl']);
const SLASH_COMMENT = new Set(['javascript', 'typescript', 'go', 'rust', 'java', 'c', 'cpp', 'csharp', 'swift', 'kotlin', 'php', 'css']);

/** Past this size the file is shown without colours: tokenizing would cost more than it helps. */
export const CODE_HIGHLIGHT_LIMIT = 200_000;

export function highlightCode(text: string, language: string): CodeToken[] {
  if (!language || text.length > CODE_HIGHLIGHT_LIMIT) return [{ kind: 'plain', text }];
  const keywords = new Set(KEYWORDS[language] ?? []);
  const caseless = language === 'sql';
  const parts: string[] = [];
  if (SLASH_COMMENT.has(language)) parts.push(String.raw`\/\/[^\n]*|\/\*[\s\S]*?\*\/`);
  if (HASH_COMMENT.has(language)) parts.push(String.raw`#[^\n]*`);
  if (language === 'sql') parts.push(String.raw`--[^\n]*`);
  if (language === 'python') parts.push(String.raw`"""[\s\S]*?"""|'''[\s\S]*?'''`);
  parts.push(String.raw`"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|\`(?:[^\`\\]|\\.)*\``);
  parts.push(String.raw`\b\d+(?:\.\d+)?\b`);
  parts.push(String.raw`[A-Za-z_][A-Za-z0-9_]*`);
  const re = new RegExp(parts.join('|'), 'g');
  const tokens: CodeToken[] = [];
  let last = 0;
  for (const m of text.matchAll(re)) {
    const start = m.index;
    if (start > last) add(tokens, 'plain', text.slice(last, start));
    add(tokens, kindOf(m[0], keywords, caseless), m[0]);
    last = start + m[0].length;
  }
  if (last < text.length) add(tokens, 'plain', text.slice(last));
  return tokens;
}

function kindOf(token: string, keywords: Set<string>, caseless: boolean): CodeTokenKind {
  const first = token[0]!;
  if (token.startsWith('//') || token.startsWith('/*') || token.startsWith('#') || token.startsWith('--')) return 'comment';
  if (first === '"' || first === "'" || first === '`') return 'string';
  if (/\d/.test(first)) return 'number';
  if (keywords.has(caseless ? token.toLowerCase() : token)) return 'keyword';
  return 'plain';
}

function add(tokens: CodeToken[], kind: CodeTokenKind, text: string): void {
  const prev = tokens[tokens.length - 1];
  if (prev && prev.kind === kind) prev.text += text;
  else tokens.push({ kind, text });
}
