/**
 * How an artifact is previewed. Nothing here ever leads to rendering artifact bytes as HTML:
 * images go through <img> (which runs no script, SVG included), everything else is text.
 */
import type { Artifact } from '../../../main/shared/protocol.js';

export type PreviewKind = 'text' | 'json' | 'log' | 'url' | 'image' | 'code' | 'binary';

/** Files larger than this are not fetched for a preview; the download link still works. */
export const TEXT_PREVIEW_LIMIT = 512 * 1024;

const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif', 'image/bmp', 'image/svg+xml', 'image/x-icon', 'image/vnd.microsoft.icon']);
const IMAGE_EXTENSIONS = new Set(['png', 'jpg', 'jpeg', 'gif', 'webp', 'avif', 'bmp', 'svg', 'ico']);

/** File extensions shown as code (monospace, highlighted), with the language they name. */
const CODE_LANGUAGES: Record<string, string> = {
  py: 'python', js: 'javascript', mjs: 'javascript', cjs: 'javascript', ts: 'typescript', tsx: 'typescript', jsx: 'javascript',
  json: 'json', sh: 'shell', bash: 'shell', zsh: 'shell', rb: 'ruby', go: 'go', rs: 'rust', java: 'java', kt: 'kotlin',
  c: 'c', h: 'c', cpp: 'cpp', hpp: 'cpp', cs: 'csharp', swift: 'swift', php: 'php', sql: 'sql', yaml: 'yaml', yml: 'yaml',
  toml: 'toml', ini: 'ini', xml: 'xml', html: 'html', htm: 'html', css: 'css', scss: 'css', r: 'r', lua: 'lua', pl: 'perl',
  dockerfile: 'shell', makefile: 'shell', ps1: 'shell',
};
const TEXT_EXTENSIONS = new Set(['txt', 'md', 'markdown', 'csv', 'tsv', 'log', 'rst', 'text', 'env', 'conf', 'cfg', 'diff', 'patch']);
const CODE_MIME: Record<string, string> = {
  'text/x-python': 'python', 'application/x-python': 'python', 'text/javascript': 'javascript', 'application/javascript': 'javascript',
  'application/typescript': 'typescript', 'text/x-shellscript': 'shell', 'application/x-sh': 'shell', 'application/json': 'json',
  'text/html': 'html', 'text/css': 'css', 'application/xml': 'xml', 'text/xml': 'xml', 'application/yaml': 'yaml', 'text/yaml': 'yaml',
  'application/sql': 'sql', 'text/x-go': 'go', 'text/x-rust': 'rust', 'text/x-java': 'java', 'text/x-c': 'c',
};

export function previewKind(artifact: Pick<Artifact, 'type' | 'metadata'>): PreviewKind {
  switch (artifact.type) {
    case 'text':
      return 'text';
    case 'json':
      return 'json';
    case 'log':
      return 'log';
    case 'url':
      return 'url';
    case 'file':
      return fileKind(artifact.metadata.mime_type, artifact.metadata.filename);
  }
}

function fileKind(mime: string | undefined, filename: string | undefined): PreviewKind {
  const type = (mime ?? '').split(';')[0]!.trim().toLowerCase();
  const ext = extensionOf(filename);
  if (IMAGE_TYPES.has(type) || (type === '' && IMAGE_EXTENSIONS.has(ext))) return 'image';
  if (type === 'application/json' || ext === 'json') return 'json';
  if (CODE_MIME[type] || CODE_LANGUAGES[ext]) return 'code';
  if (ext === 'log') return 'log';
  if (type.startsWith('text/') || TEXT_EXTENSIONS.has(ext)) return 'text';
  if (type === '' || type === 'application/octet-stream') return TEXT_EXTENSIONS.has(ext) ? 'text' : 'binary';
  return 'binary';
}

/** The language name for code highlighting ('' when unknown: plain monospace). */
export function codeLanguage(artifact: Pick<Artifact, 'metadata'>): string {
  const type = (artifact.metadata.mime_type ?? '').split(';')[0]!.trim().toLowerCase();
  return CODE_MIME[type] ?? CODE_LANGUAGES[extensionOf(artifact.metadata.filename)] ?? '';
}

function extensionOf(filename: string | undefined): string {
  if (!filename) return '';
  const base = filename.split(/[\\/]/).pop() ?? '';
  const lower = base.toLowerCase();
  if (lower === 'dockerfile' || lower === 'makefile') return lower;
  const dot = lower.lastIndexOf('.');
  return dot > 0 ? lower.slice(dot + 1) : '';
}

/** Only web links become clickable; `javascript:` or `file:` URLs from an agent are shown as text. */
export function isSafeLink(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:';
  } catch {
    return false;
  }
}

/** A name for lists: the file name, the description, or the type. */
export function artifactTitle(artifact: Pick<Artifact, 'type' | 'metadata' | 'content'>): string {
  if (artifact.metadata.filename) return artifact.metadata.filename;
  if (artifact.metadata.description) return artifact.metadata.description;
  if (artifact.type === 'url') return artifact.content;
  return `${artifact.type[0]!.toUpperCase()}${artifact.type.slice(1)} artifact`;
}

export function artifactContentUrl(artifactId: string, download = false): string {
  return `/api/artifacts/${encodeURIComponent(artifactId)}/content${download ? '?download=1' : ''}`;
}
