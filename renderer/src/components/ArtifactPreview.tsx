/**
 * An artifact's preview and its actions (download; reveal/open on the desktop). Content is shown
 * as text nodes or through <img>; never as HTML, never in an iframe, so nothing an agent wrote can
 * run as a page of this UI's origin.
 */
import { useEffect, useState } from 'react';
import type { Artifact } from '../../../main/shared/protocol.js';
import { desktopActions } from '../desktop.js';
import { artifactContentUrl, codeLanguage, isSafeLink, previewKind, TEXT_PREVIEW_LIMIT } from '../lib/artifacts.js';
import { formatBytes } from '../lib/format.js';
import { tryParseJson } from '../lib/json.js';
import { useActions } from '../store/react.js';
import { Icon, type IconName } from './Icon.js';
import { CodeView, JsonView, TextView } from './JsonView.js';
import { Spinner } from './States.js';

const KIND_ICON: Record<ReturnType<typeof previewKind>, IconName> = {
  text: 'fileText',
  json: 'braces',
  log: 'terminal',
  url: 'link',
  image: 'image',
  code: 'code',
  binary: 'file',
};

export function artifactIcon(artifact: Pick<Artifact, 'type' | 'metadata'>): IconName {
  return KIND_ICON[previewKind(artifact)];
}

export function ArtifactPreview({ artifact, hasPath = false }: { artifact: Artifact; hasPath?: boolean }) {
  return (
    <div className="artifact-preview">
      <PreviewBody artifact={artifact} />
      <ArtifactActions artifact={artifact} hasPath={hasPath} />
    </div>
  );
}

function PreviewBody({ artifact }: { artifact: Artifact }) {
  const kind = previewKind(artifact);
  const isFile = artifact.type === 'file';
  if (kind === 'url') {
    return isSafeLink(artifact.content) ? (
      <p className="artifact-url">
        <Icon name="link" size={14} />
        <a href={artifact.content} target="_blank" rel="noopener noreferrer">
          {artifact.content}
        </a>
      </p>
    ) : (
      <TextView text={artifact.content} label="URL" />
    );
  }
  if (kind === 'image') {
    return (
      <div className="artifact-image">
        <img src={artifactContentUrl(artifact.artifact_id)} alt={artifact.metadata.description ?? artifact.metadata.filename ?? 'Image artifact'} loading="lazy" />
      </div>
    );
  }
  if (kind === 'binary') {
    return (
      <div className="artifact-nopreview">
        <Icon name="file" size={20} />
        <span>
          No preview for {artifact.metadata.mime_type ?? 'this kind of file'}
          {artifact.metadata.size !== undefined ? ` (${formatBytes(artifact.metadata.size)})` : ''}. Download it to open it.
        </span>
      </div>
    );
  }
  if (!isFile) return <TextContent kind={kind} text={artifact.content} artifact={artifact} />;
  // Keyed: another artifact starts again from "loading" instead of showing the previous text.
  return <FileText key={artifact.artifact_id} artifact={artifact} kind={kind} />;
}

/** Fetches a text file's content (only below the preview limit) and shows it by kind. */
function FileText({ artifact, kind }: { artifact: Artifact; kind: ReturnType<typeof previewKind> }) {
  const tooLarge = (artifact.metadata.size ?? 0) > TEXT_PREVIEW_LIMIT;
  const [state, setState] = useState<{ status: 'loading' } | { status: 'ready'; text: string } | { status: 'error'; message: string }>({ status: 'loading' });
  useEffect(() => {
    if (tooLarge) return;
    const controller = new AbortController();
    fetch(artifactContentUrl(artifact.artifact_id), { credentials: 'same-origin', signal: controller.signal })
      .then(async (res) => {
        if (!res.ok) throw new Error(`The host answered ${res.status}.`);
        const text = await res.text();
        setState({ status: 'ready', text });
      })
      .catch((err: unknown) => {
        if (!controller.signal.aborted) setState({ status: 'error', message: err instanceof Error ? err.message : String(err) });
      });
    return () => controller.abort();
  }, [artifact.artifact_id, tooLarge]);

  if (tooLarge) {
    return (
      <div className="artifact-nopreview">
        <Icon name="file" size={20} />
        <span>Too large to preview ({formatBytes(artifact.metadata.size ?? 0)}). Download it to read it.</span>
      </div>
    );
  }
  if (state.status === 'loading') {
    return (
      <div className="artifact-loading">
        <Spinner /> Loading preview…
      </div>
    );
  }
  if (state.status === 'error') {
    return (
      <div className="artifact-nopreview" role="alert">
        <Icon name="alert" size={20} />
        <span>Could not load the preview. {state.message}</span>
      </div>
    );
  }
  return <TextContent kind={kind} text={state.text} artifact={artifact} />;
}

function TextContent({ kind, text, artifact }: { kind: ReturnType<typeof previewKind>; text: string; artifact: Artifact }) {
  if (kind === 'json') {
    const parsed = tryParseJson(text);
    return parsed ? <JsonView value={parsed.value} label="JSON" /> : <TextView text={text} label="text" />;
  }
  if (kind === 'code') return <CodeView text={text} language={codeLanguage(artifact)} label="code" />;
  if (kind === 'log') return <TextView text={text} label="log" wrap={false} />;
  return <TextView text={text} label="text" />;
}

function ArtifactActions({ artifact, hasPath }: { artifact: Artifact; hasPath: boolean }) {
  const { toast } = useActions();
  const desktop = desktopActions();
  const run = (what: string, action: (id: string) => Promise<void>): void => {
    action(artifact.artifact_id).catch((err: unknown) => toast('error', `Could not ${what}: ${err instanceof Error ? err.message : String(err)}`));
  };
  return (
    <div className="artifact-actions">
      <a className="btn btn-sm" href={artifactContentUrl(artifact.artifact_id, true)} download={artifact.metadata.filename ?? ''}>
        <Icon name="download" size={14} /> Download
      </a>
      {hasPath && desktop.reveal && (
        <button type="button" className="btn btn-sm" onClick={() => run('reveal the file', desktop.reveal!)}>
          <Icon name="folder" size={14} /> Reveal in folder
        </button>
      )}
      {hasPath && desktop.open && (
        <button type="button" className="btn btn-sm" onClick={() => run('open the file', desktop.open!)}>
          <Icon name="external" size={14} /> Open
        </button>
      )}
    </div>
  );
}
