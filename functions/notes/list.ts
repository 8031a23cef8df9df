import { perNoteable } from '#http/noteables.ts';
import { noteRoutes } from './note-routes.ts';

export const handler = perNoteable(noteRoutes.list);
