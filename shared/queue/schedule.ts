/**
 * The wrapper every scheduled function uses (functions/schedules.ts): the Lambda context on its log
 * lines as for requests and workers, and the EventBridge event's id as the correlation id, so the
 * jobs a run queues (mirror updates, LDAP syncs) log under the run that asked for them.
 */
import middy from '@middy/core';
import type { ScheduledEvent } from 'aws-lambda';
import { logContext, setCorrelationId } from '#observability/log.ts';
import { handlerTracing } from '#observability/tracing.ts';

export function defineSchedule<Result>(run: (event: ScheduledEvent) => Promise<Result>) {
  const base = (event: ScheduledEvent): Promise<Result> => {
    setCorrelationId(event.id);
    return run(event);
  };
  return middy<ScheduledEvent, Result>(base).use([...handlerTracing(), logContext()]);
}
