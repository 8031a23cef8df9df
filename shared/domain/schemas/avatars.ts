/** Parameters of the avatar routes. */
import type * as v from 'valibot';
import { params, required, str } from '../params.ts';

/**
 * The avatar file route's segments. Anything that names no stored avatar is 404 (not 400), as
 * GitLab's web route answers: so every segment is a bounded string, checked by the loader.
 */
export const avatarSchemas = {
  file: params({ model: required(str()), id: required(str()), filename: required(str(1024)) }),
};

export type AvatarFileInput = v.InferOutput<typeof avatarSchemas.file>;
