/** Parameters of the group epic routes (`/groups/:id/epics`, `/groups/:id/epics/:epic_iid`). */
import * as v from 'valibot';
import { EPIC_DESCRIPTION_MAX_LENGTH, EPIC_MAX_LABELS, EPIC_TITLE_MAX_LENGTH } from '../epics.ts';
import {
  commaList,
  date,
  id,
  idOrPath,
  issueCode,
  optional,
  params,
  present,
  required,
  str,
} from '../params.ts';
import { issuableListParams, stateEventParams } from './issuables.ts';

/** A date (YYYY-MM-DD), or an empty string that clears it (null). */
const clearableDate = () =>
  v.union(
    [
      v.pipe(
        v.literal(''),
        v.transform((): null => null),
      ),
      date(),
    ],
    issueCode.invalid,
  );

/** The labels an epic carries: at most EPIC_MAX_LABELS. */
const epicLabels = () =>
  v.pipe(
    commaList(str()),
    v.check((labels) => labels.length <= EPIC_MAX_LABELS, issueCode.invalid),
  );

const fields = {
  description: optional(str(EPIC_DESCRIPTION_MAX_LENGTH)),
  labels: optional(epicLabels()),
  start_date: optional(clearableDate()),
  end_date: optional(clearableDate()),
  due_date: optional(clearableDate()),
};

const one = { id: required(idOrPath()), epic_iid: required(id()) };

export const epicSchemas = {
  list: params({
    id: required(idOrPath()),
    ...issuableListParams,
  }),
  one: params(one),
  create: params({
    id: required(idOrPath()),
    title: required(present(str(EPIC_TITLE_MAX_LENGTH))),
    ...fields,
  }),
  update: params({
    ...one,
    title: optional(present(str(EPIC_TITLE_MAX_LENGTH))),
    ...fields,
    ...stateEventParams,
  }),
};
