import * as v from 'valibot';
import { afterEach, describe, expect, it } from 'vitest';
import {
  AVATAR_FORMAT_MESSAGE,
  AVATAR_SIZE_MESSAGE,
  avatarErrors,
  avatarParam,
  avatarPrefix,
  avatarUrl,
  MAX_AVATAR_BYTES,
  newAvatarKey,
  requestedAvatar,
  useGravatar,
  userAvatarUrl,
} from '#domain/avatars.ts';
import { ApiError } from '#domain/errors.ts';
import { imageTypeOf } from '#domain/file-types.ts';

const bytes = (hex: string, rest = 32) => Buffer.concat([Buffer.from(hex, 'hex'), Buffer.alloc(rest, 7)]);
const text = (value: string) => Buffer.from(value);

describe('imageTypeOf (by the leading bytes)', () => {
  it.each([
    ['png', bytes('89504e470d0a1a0a'), 'image/png'],
    ['jpeg', bytes('ffd8ffe0'), 'image/jpeg'],
    ['gif87a', Buffer.concat([text('GIF87a'), Buffer.alloc(8)]), 'image/gif'],
    ['gif89a', Buffer.concat([text('GIF89a'), Buffer.alloc(8)]), 'image/gif'],
    ['bmp', Buffer.concat([text('BM'), Buffer.alloc(30)]), 'image/bmp'],
    ['tiff little-endian', bytes('49492a00'), 'image/tiff'],
    ['tiff big-endian', bytes('4d4d002a'), 'image/tiff'],
    ['ico', bytes('000001000100'), 'image/vnd.microsoft.icon'],
    ['webp', Buffer.concat([text('RIFF'), Buffer.alloc(4), text('WEBPVP8 ')]), 'image/webp'],
  ])('%s → %s', (_name, content, type) => {
    expect(imageTypeOf(content)).toBe(type);
  });

  it.each([
    ['html', text('<html><script>alert(1)</script></html>')],
    ['svg', text('<svg xmlns="http://www.w3.org/2000/svg"/>')],
    ['empty', Buffer.alloc(0)],
    ['a truncated png signature', bytes('89504e47', 0)],
    ['RIFF that is no WEBP (a WAV)', Buffer.concat([text('RIFF'), Buffer.alloc(4), text('WAVEfmt ')])],
    ['an ico header with no image', bytes('000001000000', 0)],
    ['BM alone', text('BM')],
  ])('%s → none', (_name, content) => {
    expect(imageTypeOf(content)).toBeUndefined();
  });
});

describe('avatarErrors (GitLab’s order: type, then size)', () => {
  const png = (size: number) => Buffer.concat([bytes('89504e470d0a1a0a', 0), Buffer.alloc(size - 8)]);

  it('an image with an image extension (any case): none', () => {
    expect(avatarErrors({ filename: 'a.PNG', content: png(100) })).toEqual([]);
    expect(avatarErrors({ filename: 'a.jpeg', content: png(100) })).toEqual([]);
  });

  it('exactly 200 KiB passes; one byte more is too big', () => {
    expect(avatarErrors({ filename: 'a.png', content: png(MAX_AVATAR_BYTES) })).toEqual([]);
    expect(avatarErrors({ filename: 'a.png', content: png(MAX_AVATAR_BYTES + 1) })).toEqual([
      AVATAR_SIZE_MESSAGE,
    ]);
  });

  it('a name without an image extension, or bytes that are no image, is the format error', () => {
    expect(avatarErrors({ filename: 'a.html', content: png(100) })).toEqual([AVATAR_FORMAT_MESSAGE]);
    expect(avatarErrors({ filename: 'png', content: png(100) })).toEqual([AVATAR_FORMAT_MESSAGE]);
    expect(avatarErrors({ filename: 'a.png', content: text('<html></html>') })).toEqual([
      AVATAR_FORMAT_MESSAGE,
    ]);
    expect(avatarErrors({ filename: 'a.txt', content: png(MAX_AVATAR_BYTES + 1) })).toEqual([
      AVATAR_FORMAT_MESSAGE,
      AVATAR_SIZE_MESSAGE,
    ]);
  });

  it('the message names GitLab’s formats', () => {
    expect(AVATAR_FORMAT_MESSAGE).toBe(
      'file format is not supported. Please try one of the following supported formats: png, jpg, jpeg, gif, bmp, tiff, ico, webp',
    );
    expect(AVATAR_SIZE_MESSAGE).toBe('is too big (should be at most 200 KiB)');
  });
});

describe('requestedAvatar', () => {
  const jpeg = bytes('ffd8ffe0');

  it('a file sets it, with the type its bytes show and a cleaned name', () => {
    expect(requestedAvatar({ filename: 'my face!.png', content: jpeg }, undefined)).toEqual({
      kind: 'set',
      image: { filename: 'my_face_.png', contentType: 'image/jpeg', content: jpeg },
    });
  });

  it('a blank parameter removes; nothing, or an empty file, keeps', () => {
    expect(requestedAvatar(undefined, '')).toEqual({ kind: 'remove' });
    expect(requestedAvatar(undefined, undefined)).toEqual({ kind: 'keep' });
    expect(requestedAvatar({ filename: 'a.png', content: Buffer.alloc(0) }, undefined)).toEqual({
      kind: 'keep',
    });
  });

  it('a bad file → 400 with the model errors, shaped by the route', () => {
    const file = { filename: 'a.png', content: text('nope') };
    expect(() => requestedAvatar(file, undefined)).toThrow(
      expect.objectContaining({ status: 400, body: { message: { avatar: [AVATAR_FORMAT_MESSAGE] } } }),
    );
    const custom = () =>
      requestedAvatar(file, undefined, (errors) => new ApiError(400, { message: errors.avatar?.[0] }));
    expect(custom).toThrow(
      expect.objectContaining({ status: 400, body: { message: AVATAR_FORMAT_MESSAGE } }),
    );
  });
});

describe('avatarParam', () => {
  const schema = v.object({ avatar: avatarParam() });

  it('takes a blank value or nothing; any other value is invalid', () => {
    expect(v.parse(schema, { avatar: '' })).toEqual({ avatar: '' });
    expect(v.parse(schema, {})).toEqual({ avatar: undefined });
    expect(v.parse(schema, { avatar: null })).toEqual({ avatar: undefined });
    const refused = v.safeParse(schema, { avatar: 'x.png' });
    expect(refused.success).toBe(false);
    expect(refused.issues?.[0]?.message).toBe('invalid');
  });
});

describe('where avatars live and their URL', () => {
  it('GitLab’s avatar_url shape, null without one', () => {
    const stored = { key: 'k', filename: 'dk.png', content_type: 'image/png', size: 3 };
    expect(avatarUrl('https://gl.example', 'group', 7, stored)).toBe(
      'https://gl.example/uploads/-/system/group/avatar/7/dk.png',
    );
    expect(avatarUrl('https://gl.example', 'project', 7, null)).toBeNull();
    expect(avatarUrl('https://gl.example', 'user', 7, undefined)).toBeNull();
  });

  it('each upload gets its own key under the entity’s prefix; a project’s among its uploads', () => {
    const first = newAvatarKey('group', 3, 'a.png');
    const second = newAvatarKey('group', 3, 'a.png');
    expect(first).toMatch(/^avatars\/group\/3\/[0-9a-f]{32}\/a\.png$/);
    expect(second).not.toBe(first);
    expect(avatarPrefix('user', 3)).toBe('avatars/user/3/');
    expect(newAvatarKey('project', 3, 'a.png')).toMatch(/^uploads\/3\/-\/avatar\/[0-9a-f]{32}\/a\.png$/);
  });
});

describe('userAvatarUrl (always a URL, as GitLab gives it)', () => {
  const base = 'https://gitlab.example.com';
  const user = { id: 7, username: 'alice', email: ' Alice@Example.COM ' };
  afterEach(() => useGravatar(undefined));

  it('the upload when there is one', () => {
    const avatar = { key: 'k', filename: 'me.png', content_type: 'image/png', size: 3 };
    useGravatar('https://www.gravatar.com/avatar/%{hash}?s=%{size}&d=identicon');
    expect(userAvatarUrl(base, { ...user, avatar })).toBe(`${base}/uploads/-/system/user/avatar/7/me.png`);
  });

  it("no Gravatar configured: the service's default avatar", () => {
    expect(userAvatarUrl(base, user)).toBe(`${base}/assets/no_avatar.png`);
  });

  it('a Gravatar template: the SHA-256 of the trimmed, lowercased email, the size and the username filled in', () => {
    useGravatar('https://www.gravatar.com/avatar/%{hash}?s=%{size}&d=identicon&u=%{username}');
    expect(userAvatarUrl(base, user)).toBe(
      'https://www.gravatar.com/avatar/ff8d9819fc0e12bf0d24892e45987e249a28dce836a85cad60e28eaaa8c6d976?s=80&d=identicon&u=alice',
    );
  });

  it('a Gravatar template but no email known (a project owner): the default avatar', () => {
    useGravatar('https://www.gravatar.com/avatar/%{hash}');
    expect(userAvatarUrl(base, { id: 7, username: 'alice' })).toBe(`${base}/assets/no_avatar.png`);
  });
});
