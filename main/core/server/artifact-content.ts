import { sep } from 'node:path';
import send from '@fastify/send';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode } from '../../shared/error-codes.js';
import { HostError } from '../host-error.js';
import { locateArtifactFile } from '../runtime/artifact-location.js';
import type { ArtifactRecord } from '../store/task-store.js';
import { JSON_CONTENT_TYPE } from './errors.js';

/**
 * An artifact's content as an HTTP response, shared by the A2A server (orchestrators) and the
 * control API (the desk UI).
 */

const TEXT_CONTENT_TYPE = 'text/plain; charset=utf-8';
// A stored mime_type is used only if it is a plain `type/subtype[; params]`, so it can't inject.
const SAFE_MIME_TYPE = /^[\w!#$&^.+-]+\/[\w!#$&^.+-]+(?:\s*;\s*[\w!#$&^.+-]+=(?:[\w!#$&^.+-]+|"[^"\\\r\n]*"))*$/;

/** `Content-Disposition: attachment` with an ASCII fallback name and the exact UTF-8 name (RFC 6266). */
export function contentDisposition(filename: string): string {
  const fallback = filename.replace(/[^\x20-\x7e]|["\\%]/g, '_') || 'download';
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

function fileGone(artifactId: string): HostError {
  return new HostError(404, ErrorCode.ARTIFACT_NOT_FOUND, `the file of artifact ${artifactId} is gone from disk`);
}

/**
 * The artifact's file path, relative to the real artifacts root, after resolving symlinks
 * (see locateArtifactFile: nothing outside the artifacts folder is ever served).
 */
async function containedPath(
  request: FastifyRequest,
  root: string,
  record: ArtifactRecord,
): Promise<{ realRoot: string; relativePath: string }> {
  const artifactId = record.artifact.artifact_id;
  const location = await locateArtifactFile(root, record.filePath);
  if (location.ok) return location;
  if (location.problem === 'outside') {
    // Only a bug or a misbehaving plugin stores such a path: worth a warning, not a detail for the client.
    request.log.warn({ artifactId, filePath: record.filePath }, 'artifact path leads outside the artifacts folder');
    throw new HostError(404, ErrorCode.ARTIFACT_NOT_FOUND, `artifact ${artifactId} has no file inside the artifacts folder`);
  }
  throw fileGone(artifactId);
}

/**
 * Streams a `file` artifact. @fastify/send does the HTTP work: single `Range` requests (206,
 * or 416 when unsatisfiable; multiple ranges get the whole file), `If-Range`, ETag and
 * Last-Modified with conditional GETs, and HEAD; it reads with fs.createReadStream bounded by
 * start/end, so a file is never buffered whole. Its own MIME guess is off: the stored
 * mime_type is authoritative.
 */
async function sendFile(request: FastifyRequest, reply: FastifyReply, root: string, record: ArtifactRecord, attachment: boolean) {
  const { realRoot, relativePath } = await containedPath(request, root, record);
  // send() takes a URL-style path, which it decodes: encode each segment of the real path.
  const urlPath = relativePath.split(sep).map(encodeURIComponent).join('/');
  const result = await send(request.raw, urlPath, {
    root: realRoot,
    contentType: false,
    dotfiles: 'allow',
    index: false,
    cacheControl: false,
  });
  const artifactId = record.artifact.artifact_id;
  if (result.type !== 'file') {
    result.stream.destroy();
    if (result.type === 'directory' || result.statusCode === 404) throw fileGone(artifactId);
    if (result.statusCode === 416) {
      reply.header('content-range', result.headers['Content-Range']);
      throw new HostError(416, ErrorCode.RANGE_NOT_SATISFIABLE, 'the requested range is outside the file');
    }
    if (result.statusCode === 412) {
      throw new HostError(412, ErrorCode.PRECONDITION_FAILED, 'a precondition (If-Match / If-Unmodified-Since) failed');
    }
    throw result.metadata.error;
  }
  const { metadata } = record.artifact;
  reply.code(result.statusCode).headers(result.headers).header('cache-control', 'private, no-cache');
  if (attachment) reply.header('content-disposition', contentDisposition(metadata.filename ?? 'artifact'));
  if (result.statusCode === 304) {
    result.stream.destroy();
    return reply.send();
  }
  const mimeType = metadata.mime_type;
  reply.header('content-type', mimeType !== undefined && SAFE_MIME_TYPE.test(mimeType) ? mimeType : 'application/octet-stream');
  return reply.send(result.stream);
}

export interface ArtifactContentOptions {
  /** Folder that `file` artifacts' paths are relative to. */
  artifactsRoot: string;
  record: ArtifactRecord;
  /** Adds `Content-Disposition: attachment` (a download, never shown in the browser tab). */
  attachment: boolean;
}

/**
 * Sends the artifact: a `file` streamed from disk (Range, conditional GETs, HEAD), the other types
 * as text or JSON. The content is someone else's data, never a page of ours: no MIME sniffing, and
 * a sandbox CSP (no scripts, a unique origin) should a browser open it.
 */
export async function sendArtifactContent(request: FastifyRequest, reply: FastifyReply, options: ArtifactContentOptions): Promise<FastifyReply> {
  const { artifactsRoot, record, attachment } = options;
  reply.header('x-content-type-options', 'nosniff').header('content-security-policy', 'sandbox');
  const { artifact } = record;
  if (artifact.type === 'file') return sendFile(request, reply, artifactsRoot, record, attachment);
  const json = artifact.type === 'json';
  if (attachment) {
    reply.header('content-disposition', contentDisposition(artifact.metadata.filename ?? `${artifact.artifact_id}.${json ? 'json' : 'txt'}`));
  }
  return reply.header('content-type', json ? JSON_CONTENT_TYPE : TEXT_CONTENT_TYPE).send(artifact.content ?? '');
}
