import { useState } from 'react';
import type { TaskDetail } from '../../../../main/shared/control-api.js';
import type { Artifact } from '../../../../main/shared/protocol.js';
import { ArtifactPreview, artifactIcon } from '../../components/ArtifactPreview.js';
import { Icon } from '../../components/Icon.js';
import { RelativeTime } from '../../components/RelativeTime.js';
import { EmptyState } from '../../components/States.js';
import { artifactTitle } from '../../lib/artifacts.js';
import { formatBytes } from '../../lib/format.js';

export function ArtifactsSection({ data }: { data: TaskDetail }) {
  if (data.artifacts.length === 0) {
    return (
      <EmptyState icon="file" title="No artifacts">
        <p>Files, text and links this task produces appear here.</p>
      </EmptyState>
    );
  }
  return (
    <ul className="artifact-cards">
      {data.artifacts.map((a, i) => (
        <ArtifactCard key={a.artifact_id} artifact={a} initiallyOpen={i === 0} />
      ))}
    </ul>
  );
}

function ArtifactCard({ artifact, initiallyOpen }: { artifact: Artifact; initiallyOpen: boolean }) {
  const [open, setOpen] = useState(initiallyOpen);
  const panelId = `art-${artifact.artifact_id}`;
  return (
    <li className="card artifact-card">
      <button type="button" className="artifact-card-head" aria-expanded={open} aria-controls={panelId} onClick={() => setOpen((o) => !o)}>
        <Icon name={open ? 'chevronDown' : 'chevronRight'} size={14} />
        <Icon name={artifactIcon(artifact)} size={16} />
        <span className="artifact-card-title">{artifactTitle(artifact)}</span>
        <span className="muted artifact-card-meta">
          {artifact.type}
          {artifact.metadata.size !== undefined && ` · ${formatBytes(artifact.metadata.size)}`} · <RelativeTime iso={artifact.metadata.created_at} />
        </span>
      </button>
      {open && (
        <div id={panelId} className="artifact-card-body">
          {artifact.metadata.description && artifact.metadata.filename && <p className="muted">{artifact.metadata.description}</p>}
          <ArtifactPreview artifact={artifact} hasPath={artifact.type === 'file'} />
        </div>
      )}
    </li>
  );
}
