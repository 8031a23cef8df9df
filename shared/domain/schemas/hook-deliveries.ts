/**
 * Parameters of GitLab's newer hook endpoints: a hook's delivery log (events), resending one
 * attempt, and testing a hook with a sample of one trigger.
 */
import * as v from 'valibot';
import { HOOK_TEST_TRIGGERS } from '../hook-deliveries.ts';
import { commaList, id, idOrPath, issueCode, oneOf, optional, params, required } from '../params.ts';

/** GitLab's status filter: an outcome class or an HTTP status code. */
const statusFilter = v.pipe(
  v.union([v.string(), v.number()], issueCode.notAllowed),
  v.transform((value) => String(value)),
  v.check(
    (value) =>
      value === 'successful' ||
      value === 'client_failure' ||
      value === 'server_failure' ||
      (/^[1-5]\d\d$/.test(value) && Number(value) >= 100),
    issueCode.notAllowed,
  ),
);

const hook = { id: required(idOrPath()), hook_id: required(id()) };

export const hookDeliverySchemas = {
  events: params({ ...hook, status: optional(commaList(statusFilter)) }),
  resend: params({ ...hook, hook_log_id: required(id()) }),
  test: params({
    ...hook,
    trigger: required(oneOf(HOOK_TEST_TRIGGERS)),
  }),
};
