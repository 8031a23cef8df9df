import { sweepPendingDeliveries } from '#delivery/sweep.ts';
import { log } from '#observability/log.ts';
import { defineSchedule } from '#queue/schedule.ts';

/** The delivery sweep: pending webhook deliveries whose message is overdue get it again. */
export const handler = defineSchedule(async (event) => {
  const resent = await sweepPendingDeliveries();
  if (resent > 0) log('warn', 'overdue webhook deliveries sent again', { resent, scheduledAt: event.time });
  return { resent };
});
