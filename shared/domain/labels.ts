/**
 * Labels of projects and groups: what a valid title and colour are, the changes a request makes
 * and the entity GitLab presents. Issues and merge requests keep the titles of their labels.
 */
import { ACCESS } from './access.ts';
import { badRequest, conflict, invalidParams, notFound, validationFailed } from './errors.ts';
import type { Group } from './groups.ts';
import {
  canReadMergeRequests,
  confidentialIssuesHiddenFrom,
  type InProject,
  listsIssues,
} from './noteable-policy.ts';
import { atLeastOneOf } from './params.ts';
import { effectiveAccess, type Project, type ProjectAccess } from './projects.ts';
import type { Caller } from './users.ts';

/** Whose label it is: a project's own, or a group's (seen by the group's projects and subgroups). */
export interface LabelOwner {
  kind: 'project' | 'group';
  id: number;
}

export interface Label {
  id: number;
  title: string;
  color: string;
  description: string | null;
  /** A project label's priority in its project (group labels have none here). */
  priority: number | null;
  owner: LabelOwner;
  created_at: string;
  updated_at: string;
}

/** GitLab's Label model: titles of at most 255 characters. */
export const LABEL_TITLE_MAX_LENGTH = 255;
/** A description is a text column; this bound keeps a label's item small. */
export const LABEL_DESCRIPTION_MAX_LENGTH = 10_000;
/** A colour parameter: the longest CSS name is 20 characters; anything longer is refused anyway. */
export const LABEL_COLOR_MAX_LENGTH = 255;
/** The colour of a label created by naming it on an issue or merge request. */
export const DEFAULT_LABEL_COLOR = '#428BCA';

/** CSS colour keywords, turned into their hex code when a label is saved. */
const CSS_COLORS: Record<string, string> = {
  aliceblue: '#F0F8FF',
  antiquewhite: '#FAEBD7',
  aqua: '#00FFFF',
  aquamarine: '#7FFFD4',
  azure: '#F0FFFF',
  beige: '#F5F5DC',
  bisque: '#FFE4C4',
  black: '#000000',
  blanchedalmond: '#FFEBCD',
  blue: '#0000FF',
  blueviolet: '#8A2BE2',
  brown: '#A52A2A',
  burlywood: '#DEB887',
  cadetblue: '#5F9EA0',
  chartreuse: '#7FFF00',
  chocolate: '#D2691E',
  coral: '#FF7F50',
  cornflowerblue: '#6495ED',
  cornsilk: '#FFF8DC',
  crimson: '#DC143C',
  cyan: '#00FFFF',
  darkblue: '#00008B',
  darkcyan: '#008B8B',
  darkgoldenrod: '#B8860B',
  darkgray: '#A9A9A9',
  darkgreen: '#006400',
  darkgrey: '#A9A9A9',
  darkkhaki: '#BDB76B',
  darkmagenta: '#8B008B',
  darkolivegreen: '#556B2F',
  darkorange: '#FF8C00',
  darkorchid: '#9932CC',
  darkred: '#8B0000',
  darksalmon: '#E9967A',
  darkseagreen: '#8FBC8F',
  darkslateblue: '#483D8B',
  darkslategray: '#2F4F4F',
  darkslategrey: '#2F4F4F',
  darkturquoise: '#00CED1',
  darkviolet: '#9400D3',
  deeppink: '#FF1493',
  deepskyblue: '#00BFFF',
  dimgray: '#696969',
  dimgrey: '#696969',
  dodgerblue: '#1E90FF',
  firebrick: '#B22222',
  floralwhite: '#FFFAF0',
  forestgreen: '#228B22',
  fuchsia: '#FF00FF',
  gainsboro: '#DCDCDC',
  ghostwhite: '#F8F8FF',
  gold: '#FFD700',
  goldenrod: '#DAA520',
  gray: '#808080',
  green: '#008000',
  greenyellow: '#ADFF2F',
  grey: '#808080',
  honeydew: '#F0FFF0',
  hotpink: '#FF69B4',
  indianred: '#CD5C5C',
  indigo: '#4B0082',
  ivory: '#FFFFF0',
  khaki: '#F0E68C',
  lavender: '#E6E6FA',
  lavenderblush: '#FFF0F5',
  lawngreen: '#7CFC00',
  lemonchiffon: '#FFFACD',
  lightblue: '#ADD8E6',
  lightcoral: '#F08080',
  lightcyan: '#E0FFFF',
  lightgoldenrodyellow: '#FAFAD2',
  lightgray: '#D3D3D3',
  lightgreen: '#90EE90',
  lightgrey: '#D3D3D3',
  lightpink: '#FFB6C1',
  lightsalmon: '#FFA07A',
  lightseagreen: '#20B2AA',
  lightskyblue: '#87CEFA',
  lightslategray: '#778899',
  lightslategrey: '#778899',
  lightsteelblue: '#B0C4DE',
  lightyellow: '#FFFFE0',
  lime: '#00FF00',
  limegreen: '#32CD32',
  linen: '#FAF0E6',
  magenta: '#FF00FF',
  maroon: '#800000',
  mediumaquamarine: '#66CDAA',
  mediumblue: '#0000CD',
  mediumorchid: '#BA55D3',
  mediumpurple: '#9370DB',
  mediumseagreen: '#3CB371',
  mediumslateblue: '#7B68EE',
  mediumspringgreen: '#00FA9A',
  mediumturquoise: '#48D1CC',
  mediumvioletred: '#C71585',
  midnightblue: '#191970',
  mintcream: '#F5FFFA',
  mistyrose: '#FFE4E1',
  moccasin: '#FFE4B5',
  navajowhite: '#FFDEAD',
  navy: '#000080',
  oldlace: '#FDF5E6',
  olive: '#808000',
  olivedrab: '#6B8E23',
  orange: '#FFA500',
  orangered: '#FF4500',
  orchid: '#DA70D6',
  palegoldenrod: '#EEE8AA',
  palegreen: '#98FB98',
  paleturquoise: '#AFEEEE',
  palevioletred: '#DB7093',
  papayawhip: '#FFEFD5',
  peachpuff: '#FFDAB9',
  peru: '#CD853F',
  pink: '#FFC0CB',
  plum: '#DDA0DD',
  powderblue: '#B0E0E6',
  purple: '#800080',
  rebeccapurple: '#663399',
  red: '#FF0000',
  rosybrown: '#BC8F8F',
  royalblue: '#4169E1',
  saddlebrown: '#8B4513',
  salmon: '#FA8072',
  sandybrown: '#F4A460',
  seagreen: '#2E8B57',
  seashell: '#FFF5EE',
  sienna: '#A0522D',
  silver: '#C0C0C0',
  skyblue: '#87CEEB',
  slateblue: '#6A5ACD',
  slategray: '#708090',
  slategrey: '#708090',
  snow: '#FFFAFA',
  springgreen: '#00FF7F',
  steelblue: '#4682B4',
  tan: '#D2B48C',
  teal: '#008080',
  thistle: '#D8BFD8',
  tomato: '#FF6347',
  turquoise: '#40E0D0',
  violet: '#EE82EE',
  wheat: '#F5DEB3',
  white: '#FFFFFF',
  whitesmoke: '#F5F5F5',
  yellow: '#FFFF00',
  yellowgreen: '#9ACD32',
};

const HEX_COLOR = /^#(?:[0-9A-Fa-f]{3}){1,2}$/;

/**
 * The colour as saved: trimmed, a CSS name turned into its hex code; undefined when it is neither
 * `#rgb`/`#rrggbb` nor a CSS name.
 */
export function labelColor(value: string): string | undefined {
  const trimmed = value.trim();
  const color = trimmed.startsWith('#') ? trimmed : (CSS_COLORS[trimmed.toLowerCase()] ?? trimmed);
  return HEX_COLOR.test(color) ? color : undefined;
}

/**
 * The sentences GitLab's model gives a title, in its order (presence, the comma-free format,
 * length), after trimming; an empty list when it is valid.
 */
export function titleErrors(title: string): string[] {
  const errors: string[] = [];
  if (title.length === 0) errors.push("can't be blank");
  if (!/^[^,]+$/s.test(title)) errors.push('is invalid');
  if (Array.from(title).length > LABEL_TITLE_MAX_LENGTH)
    errors.push(`is too long (maximum is ${LABEL_TITLE_MAX_LENGTH} characters)`);
  return errors;
}

/** GitLab's model errors of a title and a colour as `{"message": {...}}`, or nothing when both are valid. */
function refuseInvalid(title: string | undefined, color: string | undefined, colorSent: boolean): void {
  const errors: Record<string, string[]> = {};
  if (colorSent && color === undefined) errors.color = ['must be a valid color code'];
  const titleFailures = title === undefined ? [] : titleErrors(title);
  if (titleFailures.length) errors.title = titleFailures;
  if (Object.keys(errors).length) throw validationFailed(errors);
}

export interface NewLabelInput {
  name: string;
  color: string;
  description?: string;
  priority?: number;
}

export type NewLabel = Omit<Label, 'id' | 'created_at' | 'updated_at'>;

/** A label to create, as GitLab's model saves it (400 with its sentences when invalid). */
export function newLabelFrom(input: NewLabelInput, owner: LabelOwner): NewLabel {
  const title = input.name.trim();
  const color = labelColor(input.color);
  refuseInvalid(title, color, true);
  return {
    title,
    color: color ?? DEFAULT_LABEL_COLOR,
    description: input.description ? input.description : null,
    priority: owner.kind === 'project' ? (input.priority ?? null) : null,
    owner,
  };
}

/** The label GitLab creates for a title named on an issue or merge request that no label has. */
const implicitLabel = (title: string, owner: LabelOwner): NewLabel => ({
  title,
  color: DEFAULT_LABEL_COLOR,
  description: null,
  priority: null,
  owner,
});

export interface LabelUpdateInput {
  new_name?: string;
  color?: string;
  description?: string;
  /** Sent empty (null) to remove a project label's priority. */
  priority?: number | null;
}

export type LabelChanges = Partial<Pick<Label, 'title' | 'color' | 'description' | 'priority'>>;

/** Grape's 400 for a PUT that changes nothing (a priority sent empty counts: it removes the priority). */
export function refuseEmptyLabelUpdate(input: LabelUpdateInput, kind: LabelOwner['kind']): void {
  const fields =
    kind === 'project'
      ? ['new_name', 'color', 'description', 'priority']
      : ['new_name', 'color', 'description'];
  const missing = atLeastOneOf({ ...input, priority: 'priority' in input ? true : undefined }, fields);
  if (missing) throw invalidParams(missing);
}

/** 409 `Label already exists` when a label available to the owner has the title (as sent). */
export function refuseTakenTitle(available: readonly Label[], title: string): void {
  if (available.some((label) => label.title === title)) throw conflict('Label already exists');
}

/**
 * The changes a PUT makes, each valid as the model requires (400 with its sentences); a blank new
 * name or description leaves the field as it is, as GitLab's setters do.
 */
export function labelChanges(input: LabelUpdateInput, owner: LabelOwner): LabelChanges {
  const changes: LabelChanges = {};
  const title = input.new_name?.trim();
  if (title) changes.title = title;
  const color = input.color === undefined ? undefined : labelColor(input.color);
  refuseInvalid(changes.title, color, input.color !== undefined);
  if (color !== undefined) changes.color = color;
  if (input.description) changes.description = input.description;
  if (owner.kind === 'project' && 'priority' in input) changes.priority = input.priority ?? null;
  return changes;
}

/** The label a route names by id or by title: ids first, as GitLab's finder tries them. */
export function labelNamedBy<L extends Label>(labels: readonly L[], idOrTitle: string): L | undefined {
  const byId = /^\d+$/.test(idOrTitle) ? labels.find((label) => label.id === Number(idOrTitle)) : undefined;
  return byId ?? labels.find((label) => label.title === idOrTitle);
}

/** GitLab's order of labels: by title. */
export const byTitle = (a: Label, b: Label) => (a.title < b.title ? -1 : a.title > b.title ? 1 : 0);

/** The labels whose title or description contains `search`, case-insensitively (GitLab's ILIKE). */
export function searchLabels<L extends Label>(labels: readonly L[], search: string | undefined): L[] {
  if (!search) return [...labels];
  const term = search.toLowerCase();
  return labels.filter(
    (label) =>
      label.title.toLowerCase().includes(term) || (label.description ?? '').toLowerCase().includes(term),
  );
}

/** Dark text on light colours, white on dark ones (GitLab's text_color_for_bg). */
export function textColorFor(color: string): string {
  const hex = color.slice(1);
  const channels =
    hex.length === 3
      ? Array.from(hex).map((digit) => Number.parseInt(digit + digit, 16))
      : [hex.slice(0, 2), hex.slice(2, 4), hex.slice(4, 6)].map((pair) => Number.parseInt(pair, 16));
  const sum = channels.reduce((total, channel) => total + channel, 0);
  return sum > 500 ? '#333333' : '#FFFFFF';
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** A description rendered on one line as GitLab does for labels: its text, HTML-escaped. */
const descriptionHtml = (description: string | null) =>
  (description ?? '').replace(/[&<>"']/g, (character) => HTML_ESCAPES[character] ?? character);

/** GitLab's Label entity; `subscribed` is the caller's subscription to it. */
export function labelEntity(label: Label, subscribed: boolean) {
  return {
    id: label.id,
    name: label.title,
    color: label.color,
    description: label.description,
    description_html: descriptionHtml(label.description),
    text_color: textColorFor(label.color),
    subscribed,
    priority: label.priority,
    is_project_label: label.owner.kind === 'project',
  };
}

// Who may, and whose labels -----------------------------------------------------------------------

/** Reporters and up (and admins) create, change and delete a project's labels (GitLab's admin_label). */
export const mayAdminProjectLabels = ({ caller, access }: { caller: Caller; access: ProjectAccess }) =>
  caller.admin || effectiveAccess(access) >= ACCESS.reporter;

/** Reporters and up of the group (inherited) and admins manage its labels. */
export const mayAdminGroupLabels = ({ caller, access }: { caller: Caller; access: number }) =>
  caller.admin || access >= ACCESS.reporter;

/** The labels a project has: its own and, unless told otherwise, those of its group and the group's ancestors. */
export const projectLabelOwners = (project: Project, includeAncestorGroups = true): LabelOwner[] => [
  { kind: 'project', id: project.id },
  ...(includeAncestorGroups ? project.namespace.group_ids.map((id) => ({ kind: 'group' as const, id })) : []),
];

/**
 * Reporters and up of the project's group (inherited) and admins promote its labels to the group
 * (GitLab's promote_label on the group); a project in a personal namespace has no group.
 */
export const mayPromoteProjectLabels = ({
  project,
  caller,
  access,
}: {
  project: Project;
  caller: Caller;
  access: ProjectAccess;
}) =>
  // Without a group GitLab answers 400 before it asks who may (see promotionTarget).
  project.namespace.kind !== 'group' || caller.admin || access.group >= ACCESS.reporter;

/** The group a project label is promoted to: the project's own group, else GitLab's 400. */
export function promotionTarget(project: Project): LabelOwner {
  if (project.namespace.kind !== 'group') throw badRequest('Failed to promote project label to group label');
  return { kind: 'group', id: project.namespace.id };
}

/** The project's own label named by id or title, and the target group's label of its title if it has one. */
export function promotion(labels: readonly Label[], idOrTitle: string, group: LabelOwner) {
  const label = findLabel(
    labels.filter((known) => known.owner.kind === 'project'),
    idOrTitle,
  );
  const existing = labels.find(
    (known) => known.owner.kind === 'group' && known.owner.id === group.id && known.title === label.title,
  );
  return { label, existing };
}

/** The labels of a group: its own and, unless told otherwise, its ancestors'. */
export const groupLabelOwners = (group: Group, includeAncestorGroups = true): LabelOwner[] => [
  ...(includeAncestorGroups ? group.ancestor_ids.map((id) => ({ kind: 'group' as const, id })) : []),
  { kind: 'group', id: group.id },
];

/** The label named by id or title among those read, or GitLab's 404 `Label Not Found`. */
export function findLabel(labels: readonly Label[], idOrTitle: string): Label {
  const label = labelNamedBy(labels, idOrTitle);
  if (!label) throw notFound('Label');
  return label;
}

/** The counts `with_counts` adds to a label: the issues and merge requests carrying it that the reader sees. */
export interface LabelCounts {
  open_issues_count: number;
  closed_issues_count: number;
  open_merge_requests_count: number;
}

const NO_COUNTS: LabelCounts = { open_issues_count: 0, closed_issues_count: 0, open_merge_requests_count: 0 };

/**
 * A list of labels as GitLab answers it: those matching `search`, by title, with the reader's
 * subscriptions, and their counts when asked (`with_counts`).
 */
export const labelList = (
  labels: readonly Label[],
  subscribed: ReadonlySet<number>,
  search?: string,
  counts?: ReadonlyMap<number, LabelCounts>,
) =>
  searchLabels(labels, search)
    .sort(byTitle)
    .map((label) => ({
      ...labelEntity(label, subscribed.has(label.id)),
      ...(counts && (counts.get(label.id) ?? NO_COUNTS)),
    }));

/** The titles a project's issues and merge requests carry, by state, for counting labels. */
export interface LabelledWork {
  project: Pick<Project, 'id' | 'namespace'>;
  openIssues: readonly (readonly string[])[];
  closedIssues: readonly (readonly string[])[];
  openMergeRequests: readonly (readonly string[])[];
}

/** Which of a project's issues and merge requests a reader sees, for counting labels. */
export interface CountedProject {
  project: Pick<Project, 'id' | 'namespace'>;
  /** Whether its issues are listed to the reader. */
  issues: boolean;
  /** Confidential issues left out: all for an anonymous reader, else all but their own. */
  hidesConfidentialFrom: number | 'anonymous' | undefined;
  mergeRequests: boolean;
}

/** What the reader sees of the project's issues and merge requests, as its lists decide it. */
export const countedProject = (context: InProject): CountedProject => ({
  project: context.project,
  issues: listsIssues(context),
  hidesConfidentialFrom: confidentialIssuesHiddenFrom(context),
  mergeRequests: canReadMergeRequests(context),
});

/** Whose label a title on a project's issue names, nearest first: the project's own, then its groups' from the closest. */
export const labelOwnersNearestFirst = (project: Pick<Project, 'id' | 'namespace'>): LabelOwner[] => [
  { kind: 'project', id: project.id },
  ...[...project.namespace.group_ids].reverse().map((id) => ({ kind: 'group' as const, id })),
];

const ownerTitleKey = (owner: LabelOwner, title: string) => `${owner.kind}#${owner.id}#${title}`;

/**
 * How many of the projects' issues and merge requests carry each label: a title counts for the
 * label it names in its project (the project's own of that title, else the closest group's), so
 * two labels of one title never both count the same issue. `labels` must hold every label of the
 * projects' owners that could name one of their titles.
 */
export function labelCounts(
  labels: readonly Label[],
  work: readonly LabelledWork[],
): Map<number, LabelCounts> {
  const byOwnerTitle = new Map(labels.map((label) => [ownerTitleKey(label.owner, label.title), label.id]));
  const counts = new Map<number, LabelCounts>();
  for (const project of work) {
    const owners = labelOwnersNearestFirst(project.project);
    const named = new Map<string, number | undefined>();
    const labelOf = (title: string) => {
      if (!named.has(title))
        named.set(
          title,
          owners.map((owner) => byOwnerTitle.get(ownerTitleKey(owner, title))).find((id) => id !== undefined),
        );
      return named.get(title);
    };
    const add = (titleLists: readonly (readonly string[])[], field: keyof LabelCounts) => {
      for (const titles of titleLists)
        for (const title of new Set(titles)) {
          const id = labelOf(title);
          if (id === undefined) continue;
          const current = counts.get(id) ?? { ...NO_COUNTS };
          current[field] += 1;
          counts.set(id, current);
        }
    };
    add(project.openIssues, 'open_issues_count');
    add(project.closedIssues, 'closed_issues_count');
    add(project.openMergeRequests, 'open_merge_requests_count');
  }
  return counts;
}

// Labels on issues and merge requests -------------------------------------------------------------

/** How a create or update names an issuable's labels: all of them, or some to add and to remove. */
export interface LabelEdits {
  labels?: string[];
  add_labels?: string[];
  remove_labels?: string[];
}

const trimmedTitles = (titles: readonly string[]) =>
  titles.map((title) => title.trim()).filter((title) => title.length > 0);

/**
 * Titles an issue or merge request carries, at most: its item (titles of up to 255 characters
 * beside its description) must stay within the table's item size.
 */
export const ISSUABLE_MAX_LABELS = 100;

/**
 * The titles an issuable carries after the edits (undefined when none was sent): `labels`
 * replaces, then `add_labels` adds and `remove_labels` removes, as GitLab's services apply them.
 * Refused (400, before any label is created for them) when they would grow past
 * ISSUABLE_MAX_LABELS; an issuable that already holds more may still shed some.
 */
export function labelsAfter(current: readonly string[], edits: LabelEdits): string[] | undefined {
  if (edits.labels === undefined && edits.add_labels === undefined && edits.remove_labels === undefined)
    return undefined;
  const removed = new Set(trimmedTitles(edits.remove_labels ?? []));
  const kept = [...trimmedTitles(edits.labels ?? current), ...trimmedTitles(edits.add_labels ?? [])];
  const next = [...new Set(kept)].filter((title) => !removed.has(title));
  if (next.length > ISSUABLE_MAX_LABELS && next.length > current.length)
    throw validationFailed({ labels: [`is too long (maximum is ${ISSUABLE_MAX_LABELS} labels)`] });
  return next;
}

/**
 * Whether labels pass a list's `labels` filter: `None` (no label), `Any` (some label), else all
 * of those named.
 */
export function labelsMatch(labels: readonly string[], wanted: readonly string[] | undefined): boolean {
  if (!wanted?.length) return true;
  if (wanted.length === 1) {
    const only = (wanted[0] as string).toLowerCase();
    if (only === 'none') return labels.length === 0;
    if (only === 'any') return labels.length > 0;
  }
  return wanted.every((label) => labels.includes(label));
}

/** The labels to create for titles an issuable is given that no available label has (GitLab's default colour). */
export const implicitLabels = (
  available: readonly Label[],
  titles: readonly string[],
  projectId: number,
): NewLabel[] =>
  titles
    .filter((title) => !available.some((label) => label.title === title))
    .map((title) => implicitLabel(title, { kind: 'project', id: projectId }));

// Labels shown with their details (`with_labels_details`) ----------------------------------------

/** GitLab's LabelBasic: a label as an issue or merge request shows it with `with_labels_details`. */
export const labelBasic = (label: Label) => ({
  id: label.id,
  name: label.title,
  color: label.color,
  description: label.description,
  description_html: descriptionHtml(label.description),
  text_color: textColorFor(label.color),
});

/**
 * The label each title names in a project, from the labels of its owners: the project's own of
 * that title, else the closest group's.
 */
export function labelsByTitleIn(
  project: Pick<Project, 'id' | 'namespace'>,
  labels: readonly Label[],
): (title: string) => Label | undefined {
  const owners = labelOwnersNearestFirst(project);
  const byOwnerTitle = new Map(labels.map((label) => [ownerTitleKey(label.owner, label.title), label]));
  return (title) =>
    owners.map((owner) => byOwnerTitle.get(ownerTitleKey(owner, title))).find((label) => label !== undefined);
}

/**
 * An issue's or merge request's entity with its labels as GitLab's LabelBasic, by title (a title
 * no label has any more is left out), when `with_labels_details` asked for them (`labelOf` given);
 * else as it is, with titles.
 */
export function withLabelsDetails<E extends { labels: string[] }>(
  entity: E,
  labelOf: ((title: string) => Label | undefined) | undefined,
) {
  if (!labelOf) return entity;
  const details = entity.labels
    .map(labelOf)
    .filter((label): label is Label => label !== undefined)
    .sort(byTitle)
    .map(labelBasic);
  return { ...entity, labels: details };
}
