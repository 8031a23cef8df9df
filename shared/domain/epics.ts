/** Group epics: the stored shape, the changes a request makes and the entity GitLab presents. */
export type EpicState = 'opened' | 'closed';
export const EPIC_STATES = ['opened', 'closed'] as const;
