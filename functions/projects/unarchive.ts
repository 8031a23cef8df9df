import { archivedStateHandler } from './archived-state.ts';

export const handler = archivedStateHandler(false);
