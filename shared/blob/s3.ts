/** The bucket: uploads (and later repository data). One client per container, created on first use. */
import type { S3Client } from '@aws-sdk/client-s3';
import { config } from '#config/env.ts';

/**
 * The S3 SDK is loaded on first use, not at module init: a function that has the bucket but
 * answers most requests without it (a project read, say) starts as fast as one without it.
 */
const sdk = () => import('@aws-sdk/client-s3');

let client: S3Client | undefined;

async function s3(): Promise<S3Client> {
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

/** Removes every object under a prefix (a project's uploads). */
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
