import { defineWorker } from '#queue/worker.ts';
import { indexGroupForSearch, indexProjectForSearch } from '#store/search/search-index.ts';

/** Writes a changed project's or group's search postings and clears its pending marker. Safe to run twice. */
export const handler = defineWorker('search-index', async (message) => {
  if ('groupId' in message) await indexGroupForSearch(message.groupId);
  else await indexProjectForSearch(message.projectId);
});
