/** Group epics: the stored shape, the changes a request makes and the entity GitLab presents. */
import type { Group } from './groups.ts';
import { uniqueLabels } from './issues.ts';
import { type User, userBasicOrGhost } from './users.ts';

export type EpicState = 'opened' | 'closed';
export const EPIC_STATES = ['opened', 'closed'] as const;

export interface Epic {
  /** Global id (notes name their epic by it). */
  id: number;
  /** Number within the group, from 1 without gaps (the epic routes name their epic by it). */
  iid: number;
  group_id: number;
  title: string;
  description: string | null;
  state: EpicState;
  labels: string[];
  author_id: number;
  start_date: string | null;
  end_date: string | null;
  closed_at: string | null;
  closed_by_id: number | null;
  created_at: string;
  updated_at: string;
  /** Counted by ADD in the same transaction as each note (see store/issuables/notes.ts). */
  user_notes_count: number;
}

/** Issuable titles hold 255 characters. */
export const EPIC_TITLE_MAX_LENGTH = 255;
/**
 * GitLab's 10.x–11.x epics set no limit of their own on a description (a text column, 65,535
 * bytes on MySQL); at up to 4 bytes a character this many keeps an epic's item under DynamoDB's
 * 400 KB with its title and labels.
 */
export const EPIC_DESCRIPTION_MAX_LENGTH = 65_535;
/** Labels one epic carries at most (each a label title of up to 255 characters). */
export const EPIC_MAX_LABELS = 50;

export interface EpicFields {
  title?: string;
  description?: string;
  labels?: string[];
  /** A date, or null to clear it (sent as an empty string). */
  start_date?: string | null;
  end_date?: string | null;
  /** GitLab's later name of `end_date`; `end_date` wins when both are sent. */
  due_date?: string | null;
}

const endDateOf = (input: EpicFields) => (input.end_date !== undefined ? input.end_date : input.due_date);

export type NewEpic = Omit<Epic, 'id' | 'iid' | 'created_at' | 'updated_at'>;

export function newEpicFrom(
  input: EpicFields & { title: string },
  groupId: number,
  authorId: number,
): NewEpic {
  return {
    group_id: groupId,
    title: input.title,
    description: input.description ?? null,
    state: 'opened',
    labels: uniqueLabels(input.labels ?? []),
    author_id: authorId,
    start_date: input.start_date ?? null,
    end_date: endDateOf(input) ?? null,
    closed_at: null,
    closed_by_id: null,
    user_notes_count: 0,
  };
}

/** The fields a PUT changes (only those sent). */
export function epicChanges(input: EpicFields): Partial<Epic> {
  const changes: Partial<Epic> = {};
  if (input.title !== undefined) changes.title = input.title;
  if (input.description !== undefined) changes.description = input.description;
  if (input.labels !== undefined) changes.labels = uniqueLabels(input.labels);
  if (input.start_date !== undefined) changes.start_date = input.start_date;
  const end = endDateOf(input);
  if (end !== undefined) changes.end_date = end;
  return changes;
}

/** The parameters of which a PUT must send one (Grape's `at_least_one_of`). */
export const EPIC_UPDATE_FIELDS = [
  'title',
  'description',
  'start_date',
  'end_date',
  'due_date',
  'labels',
  'state_event',
] as const;

export interface EpicFilter {
  state?: 'opened' | 'closed' | 'all';
  labels?: string[];
  search?: string;
  author_id?: number;
}

/** Whether an epic passes the list filters other than state (state picks the list read). */
export function epicMatches(epic: Epic, filter: EpicFilter): boolean {
  if (filter.labels?.length && !filter.labels.every((label) => epic.labels.includes(label))) return false;
  if (filter.author_id !== undefined && epic.author_id !== filter.author_id) return false;
  if (filter.search) {
    const term = filter.search.toLowerCase();
    const text = `${epic.title}\n${epic.description ?? ''}`.toLowerCase();
    if (!text.includes(term)) return false;
  }
  return true;
}

/** Whether the list needs filtering beyond the state's list. */
export const filtersEpics = (filter: EpicFilter) =>
  Boolean(filter.labels?.length || filter.search || filter.author_id !== undefined);

/** The users an epic shows: its author. */
export const epicUserIds = (epic: Epic) => [epic.author_id];

export const epicWebUrl = (epic: Epic, group: Group, baseUrl: string) =>
  `${baseUrl}/groups/${group.full_path}/-/epics/${epic.iid}`;

/** GitLab's Epic entity (EE, 10.x–11.x): `end_date` is also shown as `due_date`; labels sorted. */
export function epicEntity(epic: Epic, group: Group, users: ReadonlyMap<number, User>, baseUrl: string) {
  return {
    id: epic.id,
    iid: epic.iid,
    group_id: epic.group_id,
    parent_id: null,
    title: epic.title,
    description: epic.description,
    author: userBasicOrGhost(users, epic.author_id, baseUrl),
    start_date: epic.start_date,
    end_date: epic.end_date,
    due_date: epic.end_date,
    state: epic.state,
    web_url: epicWebUrl(epic, group, baseUrl),
    created_at: epic.created_at,
    updated_at: epic.updated_at,
    closed_at: epic.closed_at,
    labels: [...epic.labels].sort(),
    upvotes: 0,
    downvotes: 0,
    user_notes_count: epic.user_notes_count,
  };
}
