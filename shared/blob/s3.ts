/** The bucket: uploads (and later repository data). One client per container, created on first use. */
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { config } from '#config/env.ts';

let client: S3Client | undefined;

function s3(): S3Client {
  if (!client) {
    const endpoint = config.s3Endpoint;
    client = new S3Client(
      endpoint
        ? {
            endpoint,
            forcePathStyle: true,
            region: process.env.AWS_REGION ?? 'us-east-1',
            credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
          }
        : {},
    );
  }
  return client;
}

export async function putBlob(key: string, body: Buffer, contentType: string): Promise<void> {
  await s3().send(
    new PutObjectCommand({ Bucket: config.bucketName, Key: key, Body: body, ContentType: contentType }),
  );
}

export async function getBlob(key: string): Promise<{ body: Buffer; contentType: string } | undefined> {
  try {
    const result = await s3().send(new GetObjectCommand({ Bucket: config.bucketName, Key: key }));
    const bytes = await result.Body?.transformToByteArray();
    return { body: Buffer.from(bytes ?? []), contentType: result.ContentType ?? 'application/octet-stream' };
  } catch (error) {
    if (error instanceof NoSuchKey || (error instanceof Error && error.name === 'NoSuchKey'))
      return undefined;
    throw error;
  }
}

/** Removes every object under a prefix (a project's uploads). */
export async function deleteBlobPrefix(prefix: string): Promise<number> {
  let removed = 0;
  let token: string | undefined;
  do {
    const page = await s3().send(
      new ListObjectsV2Command({ Bucket: config.bucketName, Prefix: prefix, ContinuationToken: token }),
    );
    const objects = (page.Contents ?? []).flatMap((object) => (object.Key ? [{ Key: object.Key }] : []));
    if (objects.length) {
      await s3().send(new DeleteObjectsCommand({ Bucket: config.bucketName, Delete: { Objects: objects } }));
      removed += objects.length;
    }
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return removed;
}
