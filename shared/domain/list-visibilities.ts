/**
 * The visibilities a list request reads, most open first: the lists are read (and their reads
 * sent) in this order, whatever order the visibilities are declared in.
 */
import type { Visibility } from './access.ts';
import { type ReadScope, seesOpenly } from './read-scope.ts';

const MOST_OPEN_FIRST: readonly Visibility[] = ['public', 'internal', 'private'];

/** Every visibility, most open first. */
export const everyVisibility = (): Visibility[] => [...MOST_OPEN_FIRST];

/** The visibilities a scope sees with no membership, most open first. */
export const openlySeen = (scope: ReadScope): Visibility[] =>
  MOST_OPEN_FIRST.filter((visibility) => seesOpenly(scope, visibility));

/** The visibilities a scope sees only through membership, most open first. */
export const seenThroughMembership = (scope: ReadScope): Visibility[] =>
  MOST_OPEN_FIRST.filter((visibility) => !seesOpenly(scope, visibility));
