import { snippetNoteable } from '#http/snippet-loaders.ts';
import { noteRoutes } from '../../note-routes.ts';

export const handler = noteRoutes.create(snippetNoteable);
