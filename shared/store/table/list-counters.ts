/**
 * The counter that holds each list's total (see store/table/counters.ts): a counter of the item
 * the list hangs on where that item shows the total, else the list's own `LISTCOUNT#` item.
 */
import { type CounterRef, PARENT_SHARDS, WIDE_SHARDS } from './counters.ts';
import type { ListName } from './list-keys.ts';

/** Lists whose total is a counter of the item they hang on, shown with it. */
const COUNTED_BY_ITEM: { pattern: RegExp; attribute: string; item: (id: string) => string }[] = [
  { pattern: /^STARS#PROJECT#(\d+)$/, attribute: 'star_count', item: (id) => `PROJECT#${id}` },
  { pattern: /^ISSUES#PROJECT#(\d+)#opened$/, attribute: 'open_issues_count', item: (id) => `PROJECT#${id}` },
];

/**
 * Instance-wide lists (every user, every public project, …): every creation of their kind counts
 * in them, so their totals are spread over more shards.
 */
const WIDE_LIST =
  /^(USERS(#[^#]+)?|PATS|GROUPS#[^#]+|GROUPS#CHILDREN#ROOT|NAMESPACES#USER|PROJECTS#[^#]+|G?SEARCH#PENDING|MIRRORS|LDAPLINKS|SNIPPETS#PERSONAL#[^#]+)$/;

/** The counter that holds a list's total (see store/table/counters.ts). */
export function listCounter(list: ListName): CounterRef {
  for (const counted of COUNTED_BY_ITEM) {
    const id = counted.pattern.exec(list.partition)?.[1];
    // A counter of the item it hangs on: an increase is refused once that item is marked deleted.
    if (id !== undefined)
      return { pk: counted.item(id), attribute: counted.attribute, shards: PARENT_SHARDS, live: true };
  }
  return {
    pk: `LISTCOUNT#${list.partition}`,
    attribute: 'count',
    shards: WIDE_LIST.test(list.partition) ? WIDE_SHARDS : PARENT_SHARDS,
  };
}
