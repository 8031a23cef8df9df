import type { ScheduledEvent } from 'aws-lambda';
import { log } from '#http/log.ts';
import { updateDueMirrors } from '#jobs/import.ts';

/** The pull mirrors' schedule: every mirror not already being updated gets an update. */
export const handler = async (event: ScheduledEvent): Promise<{ scheduled: number }> => {
  const scheduled = await updateDueMirrors();
  log('info', 'mirror updates scheduled', { scheduled, scheduledAt: event.time });
  return { scheduled };
};
