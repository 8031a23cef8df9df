import { epicNoteable } from '#http/epic-loaders.ts';
import { noteRoutes } from '../../note-routes.ts';

export const handler = noteRoutes.update(epicNoteable);
