/** Avatars: serving the stored bytes, refusing a file that is no image, and the object/item order. */
import {
  DeleteObjectCommand,
  GetObjectCommand,
  type GetObjectCommandOutput,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { handler as getAvatarFile } from '../../functions/avatars/get.ts';
import { handler as getProjectAvatar } from '../../functions/avatars/project.ts';
import { handler as updateProject } from '../../functions/projects/update.ts';
import { apiEvent, invoke, lambdaContext } from '../support/events.ts';
import { BUCKET, ddb, emptyHeaders, resetMocks, sentCommands, TABLE } from './fixtures.ts';
import {
  BOB_TOKEN,
  dotfiles,
  givenWorld,
  NOT_FOUND,
  ok,
  PROJECT_NOT_FOUND,
  projectItem,
  projectKey,
  projectRead,
  store,
} from './resource-fixtures.ts';

const s3 = mockClient(S3Client);
const BOUNDARY = 'vitest-boundary-avatar';
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff]);
const STORED = {
  key: 'uploads/43/-/avatar/0123456789abcdef0123456789abcdef/dk.png',
  filename: 'dk.png',
  content_type: 'image/png',
  size: PNG.length,
};

function multipart(field: string, filename: string, content: Buffer) {
  const head = [
    `--${BOUNDARY}`,
    `Content-Disposition: form-data; name="${field}"; filename="${filename}"`,
    'Content-Type: application/octet-stream',
    '',
    '',
  ].join('\r\n');
  return {
    body: Buffer.concat([Buffer.from(head), content, Buffer.from(`\r\n--${BOUNDARY}--\r\n`)]).toString(
      'base64',
    ),
    isBase64Encoded: true,
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
  };
}

const givenObject = (content = PNG, contentType = 'image/png') =>
  s3.on(GetObjectCommand).resolves({
    Body: {
      transformToByteArray: async () => new Uint8Array(content),
    } as unknown as GetObjectCommandOutput['Body'],
    ContentType: contentType,
  });

/** What every file answer carries besides its type and disposition. */
const CSP = { 'Content-Security-Policy': "sandbox; default-src 'none'" };

beforeEach(() => {
  resetMocks();
  s3.reset();
  givenWorld();
});

describe('GET /projects/:id/avatar', () => {
  it('the stored bytes as an attachment, with the type they show, to anonymous callers of a public project', async () => {
    store({ ...projectItem(dotfiles), avatar: STORED });
    givenObject();
    expect(await getProjectAvatar(apiEvent('GET', '/api/v4/projects/43/avatar'), lambdaContext())).toEqual({
      statusCode: 200,
      headers: {
        ...emptyHeaders(),
        ...CSP,
        'Content-Type': 'image/png',
        'Content-Disposition': `attachment; filename="dk.png"; filename*=UTF-8''dk.png`,
      },
      body: PNG.toString('base64'),
      isBase64Encoded: true,
    });
    expect(s3.commandCalls(GetObjectCommand).map((call) => call.args[0].input)).toEqual([
      { Bucket: BUCKET, Key: STORED.key },
    ]);
    expect(sentCommands()).toEqual([...projectRead(43)]);
  });

  it('a project without an avatar → 404 Avatar Not Found, the bucket not read', async () => {
    expect(await invoke(getProjectAvatar, 'GET', '/api/v4/projects/43/avatar')).toEqual(
      ok({ message: '404 Avatar Not Found' }, 404),
    );
    expect(s3.calls()).toHaveLength(0);
  });

  it('a private project to anonymous callers → 404 Project Not Found', async () => {
    expect(await invoke(getProjectAvatar, 'GET', '/api/v4/projects/42/avatar')).toEqual(PROJECT_NOT_FOUND);
    expect(s3.calls()).toHaveLength(0);
  });
});

describe('GET /uploads/-/system/:model/avatar/:id/:filename', () => {
  it('the bytes inline, by the stored name', async () => {
    store({ ...projectItem(dotfiles), avatar: STORED });
    givenObject();
    expect(
      await getAvatarFile(apiEvent('GET', '/uploads/-/system/project/avatar/43/dk.png'), lambdaContext()),
    ).toEqual({
      statusCode: 200,
      headers: {
        ...emptyHeaders(),
        ...CSP,
        'Content-Type': 'image/png',
        'Content-Disposition': `inline; filename="dk.png"; filename*=UTF-8''dk.png`,
      },
      body: PNG.toString('base64'),
      isBase64Encoded: true,
    });
  });

  it('neither the recorded nor the object’s type has a say: bytes that are no image → an opaque attachment', async () => {
    const html = Buffer.from('<html><script>alert(document.domain)</script></html>');
    store({ ...projectItem(dotfiles), avatar: { ...STORED, content_type: 'text/html' } });
    givenObject(html, 'text/html');
    expect(
      await getAvatarFile(apiEvent('GET', '/uploads/-/system/project/avatar/43/dk.png'), lambdaContext()),
    ).toEqual({
      statusCode: 200,
      headers: {
        ...emptyHeaders(),
        ...CSP,
        'Content-Type': 'application/octet-stream',
        'Content-Disposition': `attachment; filename="dk.png"; filename*=UTF-8''dk.png`,
      },
      body: html.toString('base64'),
      isBase64Encoded: true,
    });
  });

  it('another name, an unknown model or a hidden project → 404 Not found without reading the bucket', async () => {
    store({ ...projectItem(dotfiles), avatar: STORED });
    for (const path of [
      '/uploads/-/system/project/avatar/43/other.png',
      '/uploads/-/system/note/avatar/43/dk.png',
      '/uploads/-/system/project/avatar/42/dk.png',
      '/uploads/-/system/project/avatar/x/dk.png',
    ]) {
      expect([path, await invoke(getAvatarFile, 'GET', path)]).toEqual([path, NOT_FOUND]);
    }
    expect(s3.calls()).toHaveLength(0);
  });
});

describe('PUT /projects/:id with an avatar', () => {
  it('HTML named .png → 400 with GitLab’s message; nothing written, nothing stored', async () => {
    const response = await invoke(updateProject, 'PUT', '/api/v4/projects/43', {
      token: BOB_TOKEN,
      ...multipart('avatar', 'evil.png', Buffer.from('<html><script></script></html>')),
    });
    expect(response).toEqual(
      ok(
        {
          message: {
            avatar: [
              'file format is not supported. Please try one of the following supported formats: png, jpg, jpeg, gif, bmp, tiff, ico, webp',
            ],
          },
        },
        400,
      ),
    );
    expect(s3.calls()).toHaveLength(0);
    expect(
      sentCommands().filter((command) => 'TransactWriteCommand' in command || 'UpdateCommand' in command),
    ).toEqual([]);
  });

  it('the object first, then the item; when the item is gone meanwhile the new object is deleted → 404', async () => {
    s3.on(PutObjectCommand).resolves({});
    s3.on(DeleteObjectCommand).resolves({});
    ddb.on(UpdateCommand, { UpdateExpression: 'SET avatar = :avatar, updated_at = :now' }).rejects(
      Object.assign(new Error('The conditional request failed'), {
        name: 'ConditionalCheckFailedException',
      }),
    );
    const response = await invoke(updateProject, 'PUT', '/api/v4/projects/43', {
      token: BOB_TOKEN,
      ...multipart('avatar', 'me.png', PNG),
    });
    expect(response).toEqual(PROJECT_NOT_FOUND);
    const [put] = s3.commandCalls(PutObjectCommand).map((call) => call.args[0].input);
    expect(put).toEqual({
      Bucket: BUCKET,
      Key: expect.stringMatching(/^uploads\/43\/-\/avatar\/[0-9a-f]{32}\/me\.png$/),
      Body: PNG,
      ContentType: 'image/png',
    });
    const avatarWrite = ddb
      .commandCalls(UpdateCommand)
      .map((call) => call.args[0].input)
      .find((input) => input.UpdateExpression === 'SET avatar = :avatar, updated_at = :now');
    expect(avatarWrite).toEqual({
      TableName: TABLE,
      Key: projectKey(43),
      UpdateExpression: 'SET avatar = :avatar, updated_at = :now',
      ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(deleting)',
      ExpressionAttributeValues: {
        ':avatar': { key: put?.Key, filename: 'me.png', content_type: 'image/png', size: PNG.length },
        ':now': expect.any(String),
      },
      ReturnValues: 'UPDATED_OLD',
    });
    expect(s3.commandCalls(DeleteObjectCommand).map((call) => call.args[0].input)).toEqual([
      { Bucket: BUCKET, Key: put?.Key },
    ]);
  });
});
