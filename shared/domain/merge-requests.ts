/** Project merge requests: the stored shape, the changes a request makes and the entity GitLab presents. */
export type MergeRequestState = 'opened' | 'closed' | 'merged' | 'locked';
export const MERGE_REQUEST_STATES = ['opened', 'closed', 'merged', 'locked'] as const;
