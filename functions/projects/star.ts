import { starredStateHandler } from './starred-state.ts';

export const handler = starredStateHandler(true);
