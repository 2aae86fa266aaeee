import { describe, expect, it } from 'vitest';
import type { Artifact } from '../../../main/shared/protocol.js';
import { artifactContentUrl, artifactTitle, codeLanguage, isSafeLink, previewKind } from '../../../renderer/src/lib/artifacts.js';
import { highlightCode } from '../../../renderer/src/lib/highlight.js';
import { prettyJson, tokenizeJson } from '../../../renderer/src/lib/json.js';
import { formatRoute, parseRoute } from '../../../renderer/src/lib/route.js';
import { parseControlEvent } from '../../../renderer/src/store/control-events.js';

const artifact = (type: Artifact['type'], metadata: Partial<Artifact['metadata']> = {}, content = 'x'): Artifact => ({
  artifact_id: 'a1',
  task_id: 't1',
  type,
  content,
  metadata: { created_at: '2025-01-01T00:00:00Z', ...metadata },
});

describe('JSON tokens', () => {
  it('splits pretty JSON into keys, strings, numbers and literals that join back to the text', () => {
    const text = prettyJson({ name: 'Ada "the" first', n: -1.5e3, ok: true, none: null, list: [1, 'two'] });
    const tokens = tokenizeJson(text);
    expect(tokens.map((t) => t.text).join('')).toBe(text);
    const kinds = (kind: string): string[] => tokens.filter((t) => t.kind === kind).map((t) => t.text);
    expect(kinds('key')).toEqual(['"name"', '"n"', '"ok"', '"none"', '"list"']);
    expect(kinds('string')).toEqual(['"Ada \\"the\\" first"', '"two"']);
    expect(kinds('number')).toEqual(['-1500', '1']);
    expect(kinds('boolean')).toEqual(['true']);
    expect(kinds('null')).toEqual(['null']);
  });
});

describe('code highlighting', () => {
  it('marks comments, strings, numbers and keywords, and keeps every character', () => {
    const code = 'def f(x):\n    # add one\n    return x + 1  # "not a string"\nprint("hi")\n';
    const tokens = highlightCode(code, 'python');
    expect(tokens.map((t) => t.text).join('')).toBe(code);
    const kinds = (kind: string): string[] => tokens.filter((t) => t.kind === kind).map((t) => t.text);
    expect(kinds('comment')).toEqual(['# add one', '# "not a string"']);
    expect(kinds('string')).toEqual(['"hi"']);
    expect(kinds('keyword')).toEqual(['def', 'return']);
    expect(kinds('number')).toEqual(['1']);
  });

  it('leaves unknown languages plain', () => {
    expect(highlightCode('a # b', '')).toEqual([{ kind: 'plain', text: 'a # b' }]);
  });
});

describe('artifact previews', () => {
  it('chooses the preview by type, MIME type and file name', () => {
    expect(previewKind(artifact('text'))).toBe('text');
    expect(previewKind(artifact('json'))).toBe('json');
    expect(previewKind(artifact('log'))).toBe('log');
    expect(previewKind(artifact('url'))).toBe('url');
    expect(previewKind(artifact('file', { mime_type: 'image/png', filename: 'a.png' }))).toBe('image');
    expect(previewKind(artifact('file', { filename: 'chart.svg' }))).toBe('image');
    expect(previewKind(artifact('file', { mime_type: 'text/x-python', filename: 'x.py' }))).toBe('code');
    expect(previewKind(artifact('file', { mime_type: 'application/octet-stream', filename: 'rollout.sh' }))).toBe('code');
    expect(previewKind(artifact('file', { mime_type: 'application/json' }))).toBe('json');
    expect(previewKind(artifact('file', { mime_type: 'text/csv', filename: 'a.csv' }))).toBe('text');
    expect(previewKind(artifact('file', { filename: 'run.log' }))).toBe('log');
    expect(previewKind(artifact('file', { mime_type: 'application/zip', filename: 'a.zip' }))).toBe('binary');
  });

  it('shows HTML files as source code, never as a page', () => {
    expect(previewKind(artifact('file', { mime_type: 'text/html', filename: 'x.html' }))).toBe('code');
    expect(codeLanguage(artifact('file', { mime_type: 'text/html' }))).toBe('html');
  });

  it('makes only http(s) links clickable', () => {
    expect(isSafeLink('https://example.com/x')).toBe(true);
    expect(isSafeLink('http://127.0.0.1:7410/')).toBe(true);
    expect(isSafeLink('javascript:alert(1)')).toBe(false);
    expect(isSafeLink('file:///etc/passwd')).toBe(false);
    expect(isSafeLink('not a url')).toBe(false);
  });

  it('names artifacts and their content URLs', () => {
    expect(artifactTitle(artifact('file', { filename: 'out.py', description: 'd' }))).toBe('out.py');
    expect(artifactTitle(artifact('text', { description: 'Summary' }))).toBe('Summary');
    expect(artifactTitle(artifact('json'))).toBe('Json artifact');
    expect(artifactContentUrl('a/1')).toBe('/api/artifacts/a%2F1/content');
    expect(artifactContentUrl('a1', true)).toBe('/api/artifacts/a1/content?download=1');
  });
});

describe('hash routes', () => {
  it('parses and formats every view', () => {
    expect(parseRoute('')).toEqual({ view: 'inbox' });
    expect(parseRoute('#/nowhere')).toEqual({ view: 'inbox' });
    expect(parseRoute('#/tasks')).toEqual({ view: 'tasks' });
    expect(parseRoute('#/tasks/abc-1')).toEqual({ view: 'tasks', taskId: 'abc-1' });
    expect(parseRoute('#/artifacts/x%2Fy')).toEqual({ view: 'artifacts', artifactId: 'x/y' });
    expect(parseRoute('#/agents/echo')).toEqual({ view: 'agents', slug: 'echo' });
    expect(parseRoute('#/tasks/%E0%A4%A')).toEqual({ view: 'tasks' });
    for (const route of [{ view: 'settings' }, { view: 'tasks', taskId: 'a b' }, { view: 'agents', slug: 'echo' }] as const) {
      expect(parseRoute(formatRoute(route))).toEqual(route);
    }
  });
});

describe('control event frames', () => {
  it('parses task, changed and reset events and drops malformed ones', () => {
    const event = { id: 7, task_id: 't', kind: 'log', data: { timestamp: 'x', level: 'INFO', message: 'm' } };
    expect(parseControlEvent('task', JSON.stringify({ type: 'task', event, agent_slug: 'echo' }))).toEqual({ type: 'task', event, agent_slug: 'echo' });
    expect(parseControlEvent('changed', '{"type":"changed","what":"agents"}')).toEqual({ type: 'changed', what: 'agents' });
    expect(parseControlEvent('reset', '{"type":"reset"}')).toEqual({ type: 'reset' });
    expect(parseControlEvent('changed', '{"what":"everything"}')).toBeUndefined();
    expect(parseControlEvent('task', '{"event":{"id":"7"},"agent_slug":"echo"}')).toBeUndefined();
    expect(parseControlEvent('task', 'not json')).toBeUndefined();
  });
});
