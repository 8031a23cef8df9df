import { issueNoteable } from '#http/issue-loaders.ts';
import { noteRoutes } from '../../note-routes.ts';

export const handler = noteRoutes.create(issueNoteable);
