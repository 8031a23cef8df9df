/**
 * The award emoji routes of issues, merge requests and project snippets and of their notes: four
 * per awardable, all served by the four entries of this folder, each with a function of its own,
 * named by its row (`functions/award-emoji/issues/notes/create.ts`). Plain data: imports no handler.
 */
import { type HttpMethod, type RouteDefinition, read, write } from '../route-kit.ts';

const AWARDABLES = [
  { path: '/api/v4/projects/{id}/issues/{issue_iid}', area: 'issues' },
  { path: '/api/v4/projects/{id}/merge_requests/{merge_request_iid}', area: 'merge-requests' },
  { path: '/api/v4/projects/{id}/snippets/{snippet_id}', area: 'snippets' },
] as const;

const VERBS: readonly { method: HttpMethod; award?: true; file: string }[] = [
  { method: 'GET', file: 'list' },
  { method: 'POST', file: 'create' },
  { method: 'GET', award: true, file: 'get' },
  { method: 'DELETE', award: true, file: 'delete' },
];

export const awardEmojiRoutes: readonly RouteDefinition[] = AWARDABLES.flatMap(({ path, area }) =>
  [false, true].flatMap((onNote) =>
    VERBS.map(({ method, award, file }) => ({
      method,
      path: `${path}${onNote ? '/notes/{note_id}' : ''}/award_emoji${award ? '/{award_id}' : ''}`,
      entry: `functions/award-emoji/${file}.ts`,
      name: `functions/award-emoji/${area}${onNote ? '/notes' : ''}/${file}.ts`,
      access: method === 'GET' ? read : write,
    })),
  ),
);
