import { defineWorker } from '#queue/worker.ts';
import { indexProjectForSearch } from '#store/search-index.ts';

/** Writes a changed project's search postings and clears its pending marker. Safe to run twice. */
export const handler = defineWorker('search-index', async ({ projectId }) => {
  await indexProjectForSearch(projectId);
});
