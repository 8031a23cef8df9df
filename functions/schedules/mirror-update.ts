import { updateDueMirrors } from '#jobs/import.ts';
import { log } from '#observability/log.ts';
import { defineSchedule } from '#queue/schedule.ts';

/** The pull mirrors' schedule: every mirror not already being updated gets an update. */
export const handler = defineSchedule(async (event) => {
  const scheduled = await updateDueMirrors();
  log('info', 'mirror updates scheduled', { scheduled, scheduledAt: event.time });
  return { scheduled };
});
