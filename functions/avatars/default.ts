import { DEFAULT_AVATAR_PNG } from '#domain/avatars.ts';
import { defineFallback } from '#http/fallback.ts';
import { reply } from '#http/reply.ts';

/**
 * The default avatar of users without an upload (when no Gravatar is configured): a file of the
 * service's, served to anyone without reading a token, as GitLab serves its assets.
 */
export const handler = defineFallback(async () => reply.asset(DEFAULT_AVATAR_PNG, 'image/png'));
