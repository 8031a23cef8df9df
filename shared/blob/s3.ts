/** The bucket: uploads and repository data. One client per container, created on first use. */
import { createReadStream, createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { S3Client } from '@aws-sdk/client-s3';
import { config } from '#config/env.ts';

/**
 * The S3 SDK is loaded on first use, not at module init: a function that has the bucket but
 * answers most requests without it (a project read, say) starts as fast as one without it.
 */
const sdk = () => import('@aws-sdk/client-s3');

let client: S3Client | undefined;

/** The container's one S3 client, pointed at s3rver when S3_ENDPOINT names one. */
export async function s3(): Promise<S3Client> {
  if (!client) {
    const { S3Client } = await sdk();
    const endpoint = config.s3Endpoint;
    client = new S3Client(
      endpoint
        ? {
            endpoint,
            forcePathStyle: true,
            region: process.env.AWS_REGION ?? 'us-east-1',
            credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
            // The SDK sends a streamed body `aws-chunked` with a trailing checksum, which s3rver
            // stores as is, framing included: locally, checksums only where S3 requires them.
            requestChecksumCalculation: 'WHEN_REQUIRED',
            responseChecksumValidation: 'WHEN_REQUIRED',
          }
        : {},
    );
  }
  return client;
}

export async function putBlob(key: string, body: Buffer, contentType: string): Promise<void> {
  const { PutObjectCommand } = await sdk();
  await (await s3()).send(
    new PutObjectCommand({ Bucket: config.bucketName, Key: key, Body: body, ContentType: contentType }),
  );
}

export async function getBlob(key: string): Promise<{ body: Buffer; contentType: string } | undefined> {
  const { GetObjectCommand, NoSuchKey } = await sdk();
  try {
    const result = await (await s3()).send(new GetObjectCommand({ Bucket: config.bucketName, Key: key }));
    const bytes = await result.Body?.transformToByteArray();
    return { body: Buffer.from(bytes ?? []), contentType: result.ContentType ?? 'application/octet-stream' };
  } catch (error) {
    if (error instanceof NoSuchKey || (error instanceof Error && error.name === 'NoSuchKey'))
      return undefined;
    throw error;
  }
}

/**
 * Streams a file into the bucket (a repository's pack can be larger than a function wants to hold
 * in memory). The length is given up front, as S3 needs it for a streamed body.
 */
export async function putBlobFile(key: string, path: string, contentType: string): Promise<void> {
  const { PutObjectCommand } = await sdk();
  const { size } = await stat(path);
  const body = createReadStream(path);
  // The SDK pipes the body into its request without listening for the file's own errors: a read
  // error (the file gone, EIO) would otherwise be an unhandled 'error' event that ends the process.
  const readFailed = new Promise<never>((_resolve, reject) => body.once('error', reject));
  readFailed.catch(() => undefined);
  try {
    const put = (await s3()).send(
      new PutObjectCommand({
        Bucket: config.bucketName,
        Key: key,
        Body: body,
        ContentLength: size,
        ContentType: contentType,
      }),
    );
    await Promise.race([put, readFailed]);
  } finally {
    body.destroy();
  }
}

/** Streams an object into a file; false when there is no such object (and no file is written). */
export async function getBlobFile(key: string, path: string): Promise<boolean> {
  const { GetObjectCommand, NoSuchKey } = await sdk();
  let body: Readable;
  try {
    const result = await (await s3()).send(new GetObjectCommand({ Bucket: config.bucketName, Key: key }));
    body = result.Body as Readable;
  } catch (error) {
    if (error instanceof NoSuchKey || (error instanceof Error && error.name === 'NoSuchKey')) return false;
    throw error;
  }
  await pipeline(body, createWriteStream(path));
  return true;
}

/** Copies an object inside the bucket, without the bytes passing through this function. */
export async function copyBlob(fromKey: string, toKey: string): Promise<void> {
  const { CopyObjectCommand } = await sdk();
  await (await s3()).send(
    new CopyObjectCommand({
      Bucket: config.bucketName,
      // The source is `bucket/key`, URL-encoded except for the key's slashes.
      CopySource: `${config.bucketName}/${encodeURIComponent(fromKey).replace(/%2F/g, '/')}`,
      Key: toKey,
    }),
  );
}

/** Every object under a prefix with its size in bytes, in key order. */
export async function listBlobs(prefix: string): Promise<{ key: string; size: number }[]> {
  const { ListObjectsV2Command } = await sdk();
  const s3Client = await s3();
  const objects: { key: string; size: number }[] = [];
  let token: string | undefined;
  do {
    const page = await s3Client.send(
      new ListObjectsV2Command({ Bucket: config.bucketName, Prefix: prefix, ContinuationToken: token }),
    );
    for (const object of page.Contents ?? []) {
      if (object.Key) objects.push({ key: object.Key, size: object.Size ?? 0 });
    }
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return objects;
}

export async function deleteBlob(key: string): Promise<void> {
  const { DeleteObjectCommand } = await sdk();
  await (await s3()).send(new DeleteObjectCommand({ Bucket: config.bucketName, Key: key }));
}

/** Removes every object under a prefix (a project's uploads, its repository). */
export async function deleteBlobPrefix(prefix: string): Promise<number> {
  const { DeleteObjectsCommand, ListObjectsV2Command } = await sdk();
  const s3Client = await s3();
  let removed = 0;
  let token: string | undefined;
  do {
    const page = await s3Client.send(
      new ListObjectsV2Command({ Bucket: config.bucketName, Prefix: prefix, ContinuationToken: token }),
    );
    const objects = (page.Contents ?? []).flatMap((object) => (object.Key ? [{ Key: object.Key }] : []));
    if (objects.length) {
      await s3Client.send(
        new DeleteObjectsCommand({ Bucket: config.bucketName, Delete: { Objects: objects } }),
      );
      removed += objects.length;
    }
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return removed;
}
