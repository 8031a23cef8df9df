import { perNoteable } from '#http/noteables.ts';
import { discussionRoutes } from './discussion-routes.ts';

export const handler = perNoteable(discussionRoutes.updateNote);
