import { hookLogEntity } from '#domain/hook-deliveries.ts';
import { hookDeliverySchemas } from '#domain/schemas/hook-deliveries.ts';
import { projectHook } from '#http/hook-loaders.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { listHookLogs } from '#store/hooks/hook-log.ts';

/** GitLab pages a hook's events 20 at most. */
const MAX_EVENTS_PER_PAGE = 20;

/** A hook's delivery attempts, newest first, optionally of some outcomes or statuses (maintainers). */
export const handler = defineRoute({
  auth: 'user',
  paginated: true,
  params: hookDeliverySchemas.events,
  load: projectHook(),
  run: async ({ params, page, hook }) => {
    const capped = { ...page, perPage: Math.min(page.perPage, MAX_EVENTS_PER_PAGE) };
    const logs = await listHookLogs(hook.id, params.status ?? [], capped, { since: hook.created_at });
    return reply.page(logs.map(hookLogEntity), undefined, capped);
  },
});
