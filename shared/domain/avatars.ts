/**
 * Avatars of users, groups and projects: which files are images, how big one may be, where it is
 * stored and the URL GitLab gives it (`/uploads/-/system/<model>/avatar/<id>/<filename>`).
 */
import { createHash, randomBytes } from 'node:crypto';
import * as v from 'valibot';
import { type ApiError, validationFailed } from './errors.ts';
import { imageTypeOf } from './file-types.ts';
import { issueCode, optional } from './params.ts';
import { sanitizeFilename, uploadPrefix } from './uploads.ts';

export const AVATAR_MODELS = ['user', 'group', 'project'] as const;
export type AvatarModel = (typeof AVATAR_MODELS)[number];

/** GitLab's Avatarable: 200 KiB at most. */
export const MAX_AVATAR_BYTES = 200 * 1024;

/** The extensions GitLab's AvatarUploader takes, in the order its message names them. */
const AVATAR_EXTENSIONS = ['png', 'jpg', 'jpeg', 'gif', 'bmp', 'tiff', 'ico', 'webp'] as const;

export const AVATAR_FORMAT_MESSAGE = `file format is not supported. Please try one of the following supported formats: ${AVATAR_EXTENSIONS.join(', ')}`;
export const AVATAR_SIZE_MESSAGE = 'is too big (should be at most 200 KiB)';

/** What an entity's item holds of its avatar (`avatar` attribute; null or absent: none). */
export interface StoredAvatar {
  /** The object's key in the bucket: new for every upload, so a failed save never touches the shown one. */
  key: string;
  filename: string;
  content_type: string;
  size: number;
}

/** An uploaded file that passed the checks, with the type its bytes show. */
export interface AvatarImage {
  filename: string;
  contentType: string;
  content: Buffer;
}

export type AvatarRequest = { kind: 'keep' } | { kind: 'remove' } | { kind: 'set'; image: AvatarImage };

const extensionOf = (filename: string) => {
  const dot = filename.lastIndexOf('.');
  return dot > 0 ? filename.slice(dot + 1).toLowerCase() : '';
};

/**
 * GitLab's avatar validations, in its order (type, then size): the name must have an image
 * extension, and here the bytes must also be an image, whatever the name and the declared type say.
 */
export function avatarErrors(file: { filename: string; content: Buffer }): string[] {
  const errors: string[] = [];
  const named = (AVATAR_EXTENSIONS as readonly string[]).includes(extensionOf(file.filename));
  if (!named || !imageTypeOf(file.content)) errors.push(AVATAR_FORMAT_MESSAGE);
  if (file.content.length > MAX_AVATAR_BYTES) errors.push(AVATAR_SIZE_MESSAGE);
  return errors;
}

/**
 * The `avatar` parameter when it is no file: only a blank value, which removes the avatar (GitLab
 * 15.4+); any other string is Grape's "avatar is invalid".
 */
export const avatarParam = () =>
  optional(
    v.pipe(
      v.unknown(),
      v.check((value) => value === '', issueCode.invalid),
      v.transform(() => '' as const),
    ),
  );

/**
 * What a create or update asks of the avatar: a file sets it (checked here, before anything is
 * written: 400 with the model's errors), a blank `avatar` parameter removes it, anything else
 * (no avatar, an empty file) keeps it.
 * `refuse` shapes the errors as the route reports model errors.
 */
export function requestedAvatar(
  file: { filename: string; content: Buffer } | undefined,
  param: '' | undefined,
  refuse: (errors: Record<string, string[]>) => ApiError = validationFailed,
): AvatarRequest {
  // An empty file is no file (CarrierWave ignores it): the avatar stays as it is.
  if (file && file.content.length > 0) {
    const errors = avatarErrors(file);
    if (errors.length) throw refuse({ avatar: errors });
    const contentType = imageTypeOf(file.content) as string;
    return {
      kind: 'set',
      image: { filename: sanitizeFilename(file.filename), contentType, content: file.content },
    };
  }
  return param === '' ? { kind: 'remove' } : { kind: 'keep' };
}

/**
 * Every avatar object of one entity lives under its prefix, so removing the entity removes them. A
 * project's are among its uploads (as GitLab counts them in uploads_size), where no upload's
 * 32-hex secret can name them and the project's removal takes them along.
 */
export const avatarPrefix = (model: AvatarModel, id: number) =>
  model === 'project' ? `${uploadPrefix(id)}-/avatar/` : `avatars/${model}/${id}/`;

/** A new avatar's key: a fresh random segment, so no upload ever overwrites the one shown. */
export const newAvatarKey = (model: AvatarModel, id: number, filename: string) =>
  `${avatarPrefix(model, id)}${randomBytes(16).toString('hex')}/${filename}`;

export const storedAvatar = (key: string, image: AvatarImage): StoredAvatar => ({
  key,
  filename: image.filename,
  content_type: image.contentType,
  size: image.content.length,
});

/** GitLab's avatar_url: `<base>/uploads/-/system/<model>/avatar/<id>/<filename>`, null without one. */
export const avatarUrl = (
  baseUrl: string,
  model: AvatarModel,
  id: number,
  avatar: StoredAvatar | null | undefined,
): string | null => (avatar ? `${baseUrl}${avatarPath(model, id, avatar.filename)}` : null);

export const avatarPath = (model: AvatarModel, id: number, filename: string) =>
  `/uploads/-/system/${model}/avatar/${id}/${filename}`;

/** Where this service serves the avatar of a user who has none and no Gravatar is configured. */
export const DEFAULT_AVATAR_PATH = '/assets/no_avatar.png';

/** The default avatar: an 80×80 grey PNG (GitLab's API asks its avatars at 80 pixels). */
export const DEFAULT_AVATAR_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAFAAAABQCAIAAAABc2X6AAAAZElEQVR42u3PAQEAAAgCIP9f9Iw/Ch6QPhNhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWHhSwbMCyzB3C23XwAAAABJRU5ErkJggg==',
  'base64',
);

/**
 * The deployment's Gravatar URL (GitLab's `gravatar.plain_url` shape: `%{hash}`, `%{size}`,
 * `%{email}`, `%{username}`), or none. Set once per container by the request chain from its
 * settings, since the domain reads no settings itself.
 */
let gravatarTemplate: string | undefined;

export function useGravatar(template: string | undefined): void {
  gravatarTemplate = template;
}

const AVATAR_SIZE = 80;

/**
 * A user's avatar_url, always a URL as GitLab's: their upload; else their Gravatar (the SHA-256 of
 * the trimmed, lowercased email) when one is configured; else this service's default avatar.
 */
export function userAvatarUrl(
  baseUrl: string,
  user: { id: number; email?: string; username: string; avatar?: StoredAvatar | null },
): string {
  const uploaded = avatarUrl(baseUrl, 'user', user.id, user.avatar);
  if (uploaded) return uploaded;
  const email = user.email?.trim().toLowerCase();
  if (!gravatarTemplate || !email) return `${baseUrl}${DEFAULT_AVATAR_PATH}`;
  const values: Record<string, string> = {
    hash: createHash('sha256').update(email).digest('hex'),
    size: String(AVATAR_SIZE),
    email: encodeURIComponent(email),
    username: encodeURIComponent(user.username),
  };
  return gravatarTemplate.replace(/%\{(hash|size|email|username)\}/g, (_, key: string) => values[key] ?? '');
}
