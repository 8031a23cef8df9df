import { mergeRequestNoteable } from '#http/merge-request-loaders.ts';
import { noteRoutes } from '../../note-routes.ts';

export const handler = noteRoutes.create(mergeRequestNoteable);
