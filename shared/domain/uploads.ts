/** Uploads: where a file lives and how GitLab describes it (alt, url, markdown). */
import { randomBytes } from 'node:crypto';
import { invalidParams, payloadTooLarge } from './errors.ts';
import { servedType } from './file-types.ts';

/** GitLab's default max_attachment_size is 10 MB; Lambda's 6 MB request limit is the tighter bound here. */
export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;

/**
 * GitLab's FileTypeDetection: which names Markdown embeds (`![]()`). Only the Markdown of an upload's
 * description follows the name; how a file is served follows its bytes (file-types.ts).
 */
const IMAGE_EXTENSIONS = new Set(['png', 'jpg', 'jpeg', 'gif', 'bmp', 'tiff', 'tif', 'ico', 'webp']);
const VIDEO_EXTENSIONS = new Set(['mp4', 'm4v', 'mov', 'webm', 'ogv']);
const AUDIO_EXTENSIONS = new Set(['mp3', 'oga', 'ogg', 'spx', 'wav']);
/** Embedded by GitLab's Markdown too, though never served in place (an image there renders no script). */
const DANGEROUS_EXTENSIONS = new Set(['svg']);

const newUploadSecret = () => randomBytes(16).toString('hex');

/**
 * The longest stored file name. Object stores keep a name as a file of its own beside a metadata
 * file, and file systems hold 255 bytes a name: 200 leaves room for their suffixes, on S3 and locally.
 */
export const MAX_FILENAME_LENGTH = 200;

/**
 * File names keep letters, digits, dot, dash and underscore; anything else becomes `_` (CarrierWave);
 * a long name is cut to MAX_FILENAME_LENGTH, keeping its extension.
 */
export function sanitizeFilename(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const clean = base.replace(/[^a-zA-Z0-9._-]/g, '_').replace(/^\.+/, '_');
  if (!clean.length) return 'file';
  if (clean.length <= MAX_FILENAME_LENGTH) return clean;
  const dot = clean.lastIndexOf('.');
  const extension = dot > 0 && clean.length - dot <= 16 ? clean.slice(dot) : '';
  return clean.slice(0, MAX_FILENAME_LENGTH - extension.length) + extension;
}

/** Whether a requested name is one an upload can have been stored under (else 404 before any read). */
const isStoredFilename = (name: string) => name !== '' && sanitizeFilename(name) === name;

/**
 * Where an upload asked for is stored; undefined when no upload can have that secret and name,
 * so such a request is 404 before anything is read.
 */
export const uploadKey = (projectId: number, secret: string, filename: string) =>
  /^[0-9a-f]{32}$/.test(secret) && isStoredFilename(filename)
    ? storedAt(projectId, secret, filename)
    : undefined;

/** Where an upload is stored: under its project's prefix, so a project's uploads go with it. */
const storedAt = (projectId: number, secret: string, filename: string) =>
  `${uploadPrefix(projectId)}${secret}/${filename}`;

/**
 * A file sent for upload, as it is stored: 400 without a file, 413 when it is too large. It is
 * stored with the type its bytes show (never the one the client declared).
 */
export function newUpload(
  projectId: number,
  file: { filename: string; content: Buffer; contentType: string } | undefined,
) {
  if (!file) throw invalidParams('file is missing');
  if (file.content.length > MAX_ATTACHMENT_BYTES) throw payloadTooLarge();
  const secret = newUploadSecret();
  const filename = sanitizeFilename(file.filename);
  return {
    key: storedAt(projectId, secret, filename),
    secret,
    filename,
    content: file.content,
    contentType: servedType(file.content).contentType,
  };
}

/** Characters a quoted `filename="…"` keeps as they are (Rails' ContentDisposition); others are %-escaped. */
const PLAIN_FILENAME_CHAR = /[^ A-Za-z0-9!#$+.^_`|~-]/gu;
/** Characters RFC 5987's `filename*` keeps as they are; others are UTF-8 %-escaped. */
const RFC5987_CHAR = /[^A-Za-z0-9!#$&+.^_`|~-]/gu;

const percentEscape = (text: string, pattern: RegExp) =>
  text.replace(pattern, (char) =>
    Array.from(
      Buffer.from(char, 'utf8'),
      (byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`,
    ).join(''),
  );

/**
 * A Content-Disposition as Rails formats it (RFC 6266): the name quoted in printable ASCII (any
 * other character `_`; quotes, backslashes and `%` %-escaped, so nothing breaks out of the quotes),
 * then `filename*` with the name as it is, UTF-8 and %-escaped (RFC 5987).
 */
export function contentDisposition(disposition: 'inline' | 'attachment', filename: string): string {
  const ascii = percentEscape(filename.replace(/[^\u0020-\u007e]/gu, '_'), PLAIN_FILENAME_CHAR);
  return `${disposition}; filename="${ascii}"; filename*=UTF-8''${percentEscape(filename, RFC5987_CHAR)}`;
}

/**
 * How a stored file is served, decided by its leading bytes only (file-types.ts): an image, audio
 * or video with its own type, in place unless `attachment` (GitLab's avatar downloads); anything
 * else as application/octet-stream, an attachment. Neither the name nor a declared or stored type
 * has a say, so no file renders as a page, SVG or XML here.
 */
export function downloadOf(
  leading: Buffer,
  filename: string,
  options: { attachment?: boolean } = {},
): { contentType: string; headers: DownloadHeaders } {
  const served = servedType(leading);
  const disposition = served.inline && !options.attachment ? 'inline' : 'attachment';
  return {
    contentType: served.contentType,
    headers: { 'Content-Disposition': contentDisposition(disposition, filename) },
  };
}

/**
 * A stored file as a download answers it (uploads and avatars): its bytes with their type and the
 * download's headers, or, too large for a Lambda response, a short-lived URL that serves them with
 * the same (shared/blob/downloads.ts).
 */
export type FileDownload =
  | { body: Buffer; contentType: string; headers: DownloadHeaders }
  | { location: string };

/** A download's headers: at least how it is disposed (inline or attachment, and its name). */
export type DownloadHeaders = { 'Content-Disposition': string } & Record<string, string>;

/** Every upload of a project lives under its prefix, so a project's uploads go with it. */
export const uploadPrefix = (projectId: number) => `uploads/${projectId}/`;

const extensionOf = (filename: string) => {
  const dot = filename.lastIndexOf('.');
  return dot > 0 ? filename.slice(dot + 1).toLowerCase() : '';
};

/** GitLab's `embeddable?`: images, videos and audio by name, which Markdown shows in place. */
function isEmbeddable(filename: string): boolean {
  const extension = extensionOf(filename);
  return (
    IMAGE_EXTENSIONS.has(extension) || VIDEO_EXTENSIONS.has(extension) || AUDIO_EXTENSIONS.has(extension)
  );
}

/**
 * GitLab's upload description (FileMarkdownLinkBuilder): an embeddable name loses its extension in
 * `alt`; embeddable and dangerous (SVG) names are `![alt](url)`, any other `[alt](url)`.
 */
export function uploadEntity(secret: string, filename: string, projectFullPath: string) {
  const url = `/uploads/${secret}/${filename}`;
  const dot = filename.lastIndexOf('.');
  const embedded = isEmbeddable(filename);
  const alt = embedded && dot > 0 ? filename.slice(0, dot) : filename;
  const escaped = alt.replace(/]/g, '\\]');
  const image = embedded || DANGEROUS_EXTENSIONS.has(extensionOf(filename));
  return {
    alt,
    url,
    full_path: `/${projectFullPath}${url}`,
    markdown: image ? `![${escaped}](${url})` : `[${escaped}](${url})`,
  };
}
