/**
 * Stored files as a download answers them: the bytes themselves when they fit a Lambda response,
 * else a short-lived presigned URL from which S3 serves them with the same headers (GitLab, too,
 * redirects a download to object storage).
 */
import type { Readable } from 'node:stream';
import type { GetObjectCommandOutput } from '@aws-sdk/client-s3';
import { config } from '#config/env.ts';
import { SNIFF_BYTES } from '#domain/file-types.ts';
import { downloadOf, type FileDownload } from '#domain/uploads.ts';
import { s3 } from './s3.ts';

/**
 * The largest file a download answers with itself. Lambda's synchronous response is at most 6 MiB
 * of JSON (its error names 6,291,556 bytes) and carries a binary body base64-encoded, 4 bytes for
 * every 3: 4 MiB becomes 5,592,408 bytes, leaving over 680 KiB for the headers and the envelope.
 */
export const DIRECT_DOWNLOAD_MAX_BYTES = 4 * 1024 * 1024;

/**
 * How long a download's presigned URL is valid: time enough for a client to follow the redirect
 * (and a slow one to retry), too little to make the URL worth passing around.
 */
const DOWNLOAD_URL_SECONDS = 300;

/** Whether a file of this many bytes is answered with its bytes (else with a redirect). */
export const answeredDirectly = (size: number) => size <= DIRECT_DOWNLOAD_MAX_BYTES;

const sdk = () => import('@aws-sdk/client-s3');

/** One GET of a stored object, its body unread; undefined when the bucket does not hold it. */
async function getStoredObject(key: string): Promise<GetObjectCommandOutput | undefined> {
  const { GetObjectCommand, NoSuchKey } = await sdk();
  const client = await s3();
  try {
    return await client.send(new GetObjectCommand({ Bucket: config.bucketName, Key: key }));
  } catch (error) {
    if (error instanceof NoSuchKey || (error instanceof Error && error.name === 'NoSuchKey'))
      return undefined;
    throw error;
  }
}

/**
 * A stored object for a download, or undefined when the bucket does not hold it. Its leading bytes
 * decide how it is served (`downloadOf`: its type and disposition, never the type it was stored
 * with, which may be a client's), and a presigned URL makes S3 answer with the same. One GET either
 * way: the length is known before the body is read, so of a file too large to answer only its
 * leading bytes are read into the function.
 */
export async function getBlobDownload(
  key: string,
  filename: string,
  options: { attachment?: boolean } = {},
): Promise<FileDownload | undefined> {
  const object = await getStoredObject(key);
  if (object === undefined) return undefined;
  let leading: Buffer;
  if (object.ContentLength === undefined || answeredDirectly(object.ContentLength)) {
    const body = Buffer.from((await object.Body?.transformToByteArray()) ?? []);
    if (answeredDirectly(body.length)) return { body, ...downloadOf(body, filename, options) };
    leading = body.subarray(0, SNIFF_BYTES);
  } else {
    leading = await leadingBytes(object.Body as Partial<Readable> | undefined, SNIFF_BYTES);
  }
  const served = downloadOf(leading, filename, options);
  return {
    location: await presignedDownloadUrl(key, served.contentType, served.headers['Content-Disposition']),
  };
}

/**
 * A stored object answered with the type the caller names (no sniffing, no disposition): its bytes
 * when they fit a Lambda response, else a presigned URL; undefined when the bucket does not hold
 * it. The length is known before the body is read, so a large object is never read here.
 */
export async function getTypedDownload(
  key: string,
  contentType: string,
): Promise<{ body: Buffer; contentType: string } | { location: string } | undefined> {
  const object = await getStoredObject(key);
  if (object === undefined) return undefined;
  if (object.ContentLength !== undefined && answeredDirectly(object.ContentLength)) {
    return { body: Buffer.from((await object.Body?.transformToByteArray()) ?? []), contentType };
  }
  (object.Body as Partial<Readable> | undefined)?.destroy?.();
  return { location: await presignedDownloadUrl(key, contentType) };
}

/**
 * The first `count` bytes of an object's body (fewer when it is shorter); the connection is then
 * closed rather than the rest read.
 */
async function leadingBytes(body: Partial<Readable> | undefined, count: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let length = 0;
  try {
    if (body?.[Symbol.asyncIterator]) {
      for await (const chunk of body as AsyncIterable<Uint8Array | string>) {
        const bytes = Buffer.from(chunk);
        chunks.push(bytes);
        length += bytes.length;
        if (length >= count) break;
      }
    }
  } finally {
    body?.destroy?.();
  }
  return Buffer.concat(chunks).subarray(0, count);
}

/**
 * A GET of the object signed with the function's own credentials (its role may read the bucket),
 * valid for DOWNLOAD_URL_SECONDS, that S3 answers with the given type and disposition. Signing is
 * local: no request is made.
 */
async function presignedDownloadUrl(
  key: string,
  contentType: string,
  contentDisposition?: string,
): Promise<string> {
  const [{ GetObjectCommand }, { getSignedUrl }] = await Promise.all([
    sdk(),
    import('@aws-sdk/s3-request-presigner'),
  ]);
  return getSignedUrl(
    await s3(),
    new GetObjectCommand({
      Bucket: config.bucketName,
      Key: key,
      ResponseContentType: contentType,
      ResponseContentDisposition: contentDisposition,
    }),
    { expiresIn: DOWNLOAD_URL_SECONDS },
  );
}
