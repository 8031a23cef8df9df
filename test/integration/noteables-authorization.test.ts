/**
 * Who may do what with issues, merge requests, snippets, epics and their notes: every operation of
 * those routes × every caller (anonymous, non-member, guest, reporter, developer, maintainer, owner,
 * admin) × a public, an internal and a private project (group, for epics), plus confidential issues
 * with their author and assignee. One labelled test per row and visibility.
 *
 * The expectations below are GitLab's (10.x–11.x), written out as a table from its policies and API
 * code, not computed from ours: app/policies/project_policy.rb (guest_access / reporter_access /
 * developer_access / master_access / owner_access, public_user_access for signed-in users of
 * public and internal projects), issuable_policy.rb and issue_policy.rb (authors and assignees;
 * confidential issues), note_policy.rb (authors and `admin_note`; system notes are not editable),
 * project_snippet_policy.rb, ee epic_policy.rb and ee group_policy.rb (epics), and lib/api/
 * issues.rb, merge_requests.rb, project_snippets.rb, notes.rb + helpers/notes_helpers.rb, ee
 * epics.rb (which finder or authorize! decides each answer, hence 404 or 403). Anonymous callers:
 * current GitLab authenticates issues and merge requests with `authenticate_non_get!`, so their
 * GETs (list and single), the single project snippet and its raw content, and epics (list and
 * single) answer anonymous callers for a public project (group) as for any reader of public data:
 * what is public is shown, confidential issues and non-public snippets are hidden (404), and an
 * internal or private project (group) is `404 Project Not Found` (`404 Group Not Found`), as
 * `find_project!` answers. Everything else (every verb of the notes API, the project snippet list,
 * every write) authenticates first: 401.
 *
 * The world is built once; each (visibility, caller) cell then runs its requests in order (its own
 * targets for writes, so cells never disturb each other) while all cells run at once.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { type ApiResponse, api, createUser, must, rootToken, type TestUser, unique } from '../support/api.ts';

const VISIBILITIES = ['public', 'internal', 'private'] as const;
type Visibility = (typeof VISIBILITIES)[number];

const CALLERS = [
  'anonymous',
  'non-member',
  'guest',
  'reporter',
  'developer',
  'maintainer',
  'owner',
  'admin',
] as const;
/** Confidential issues add two guests: the author of one and the assignee of the other. */
const CONFIDENTIAL_CALLERS = [...CALLERS, 'author', 'assignee'] as const;
type Caller = (typeof CONFIDENTIAL_CALLERS)[number];

/** A status, or for list rows whether the item is listed (200 and there, or 200 and not). */
type Outcome = 200 | 201 | 204 | 401 | 403 | 404 | 'shown' | 'hidden';
type Row = Record<Visibility, readonly Outcome[]>;

// ------------------------------------------------------------------------------------------------
// The expected matrix. Columns, in order:
//   anonymous  non-member  guest  reporter  developer  maintainer  owner  admin  (author  assignee)
// "others'" targets were created by another member (a developer who is none of the callers).
// A private project/group is 404 `Project Not Found` / `Group Not Found` to a non-member, and an
// internal or private one to an anonymous caller (on the GETs that answer them at all).
// ------------------------------------------------------------------------------------------------
const MATRIX = {
  // Issues ----------------------------------------------------------------------------------------
  // read_issue: guest_access for members; public_access for any signed-in user of a public or
  // internal project (public_user_access). issues.rb: find_project! then IssuesFinder.
  'issues: list': {
    public: [200, 200, 200, 200, 200, 200, 200, 200],
    internal: [404, 200, 200, 200, 200, 200, 200, 200],
    private: [404, 404, 200, 200, 200, 200, 200, 200],
  },
  // find_project_issue (IssuesFinder): same readers.
  'issues: get': {
    public: [200, 200, 200, 200, 200, 200, 200, 200],
    internal: [404, 200, 200, 200, 200, 200, 200, 200],
    private: [404, 404, 200, 200, 200, 200, 200, 200],
  },
  // authorize! :create_issue — guest_access, which public_user_access grants too.
  'issues: create': {
    public: [401, 201, 201, 201, 201, 201, 201, 201],
    internal: [401, 201, 201, 201, 201, 201, 201, 201],
    private: [401, 404, 201, 201, 201, 201, 201, 201],
  },
  // authorize! :update_issue — reporter_access (or the issue's author/assignee, none of these).
  'issues: update': {
    public: [401, 403, 403, 200, 200, 200, 200, 200],
    internal: [401, 403, 403, 200, 200, 200, 200, 200],
    private: [401, 404, 403, 200, 200, 200, 200, 200],
  },
  // state_event=close is an update: update_issue, as above.
  'issues: close': {
    public: [401, 403, 403, 200, 200, 200, 200, 200],
    internal: [401, 403, 403, 200, 200, 200, 200, 200],
    private: [401, 404, 403, 200, 200, 200, 200, 200],
  },
  // authorize!(:destroy_issue) — owner_access (group owner of the project, or admin).
  'issues: delete': {
    public: [401, 403, 403, 403, 403, 403, 204, 204],
    internal: [401, 403, 403, 403, 403, 403, 204, 204],
    private: [401, 404, 403, 403, 403, 403, 204, 204],
  },

  // Issue notes: find_noteable → find_project_issue (404 when hidden), then NotePolicy.
  // read_note with read_issue.
  'issue notes: list': {
    public: [401, 200, 200, 200, 200, 200, 200, 200],
    internal: [401, 200, 200, 200, 200, 200, 200, 200],
    private: [401, 404, 200, 200, 200, 200, 200, 200],
  },
  'issue notes: get': {
    public: [401, 200, 200, 200, 200, 200, 200, 200],
    internal: [401, 200, 200, 200, 200, 200, 200, 200],
    private: [401, 404, 200, 200, 200, 200, 200, 200],
  },
  // authorize! :create_note — guest_access (public_user_access included).
  'issue notes: create': {
    public: [401, 201, 201, 201, 201, 201, 201, 201],
    internal: [401, 201, 201, 201, 201, 201, 201, 201],
    private: [401, 404, 201, 201, 201, 201, 201, 201],
  },
  // admin_note: NotePolicy `is_author` — every reader may change their own note.
  'issue notes: update own': {
    public: [401, 200, 200, 200, 200, 200, 200, 200],
    internal: [401, 200, 200, 200, 200, 200, 200, 200],
    private: [401, 404, 200, 200, 200, 200, 200, 200],
  },
  'issue notes: delete own': {
    public: [401, 204, 204, 204, 204, 204, 204, 204],
    internal: [401, 204, 204, 204, 204, 204, 204, 204],
    private: [401, 404, 204, 204, 204, 204, 204, 204],
  },
  // admin_note on another's note: master_access (maintainer, owner, admin).
  "issue notes: update others'": {
    public: [401, 403, 403, 403, 403, 200, 200, 200],
    internal: [401, 403, 403, 403, 403, 200, 200, 200],
    private: [401, 404, 403, 403, 403, 200, 200, 200],
  },
  "issue notes: delete others'": {
    public: [401, 403, 403, 403, 403, 204, 204, 204],
    internal: [401, 403, 403, 403, 403, 204, 204, 204],
    private: [401, 404, 403, 403, 403, 204, 204, 204],
  },
  // NotePolicy `rule { ~editable }.prevent :admin_note`: a system note is nobody's to edit.
  'issue notes: edit a system note': {
    public: [401, 403, 403, 403, 403, 403, 403, 403],
    internal: [401, 403, 403, 403, 403, 403, 403, 403],
    private: [401, 404, 403, 403, 403, 403, 403, 403],
  },

  // Merge requests --------------------------------------------------------------------------------
  // authorize! :read_merge_request, user_project — reporter_access, or public_access (public
  // project, or internal to signed-in users). A guest of a private project can see the project but
  // not its merge requests: 403.
  'merge requests: list': {
    public: [200, 200, 200, 200, 200, 200, 200, 200],
    internal: [404, 200, 200, 200, 200, 200, 200, 200],
    private: [404, 404, 403, 200, 200, 200, 200, 200],
  },
  // find_merge_request_with_access: find_by! then authorize! :read_merge_request (403, as above).
  'merge requests: get': {
    public: [200, 200, 200, 200, 200, 200, 200, 200],
    internal: [404, 200, 200, 200, 200, 200, 200, 200],
    private: [404, 404, 403, 200, 200, 200, 200, 200],
  },
  // authorize! :create_merge_request(_from) — developer_access.
  'merge requests: create': {
    public: [401, 403, 403, 403, 201, 201, 201, 201],
    internal: [401, 403, 403, 403, 201, 201, 201, 201],
    private: [401, 404, 403, 403, 201, 201, 201, 201],
  },
  // find_merge_request_with_access(:update_merge_request) — developer_access (or author/assignee).
  'merge requests: update': {
    public: [401, 403, 403, 403, 200, 200, 200, 200],
    internal: [401, 403, 403, 403, 200, 200, 200, 200],
    private: [401, 404, 403, 403, 200, 200, 200, 200],
  },
  // find_project_merge_request (MergeRequestsFinder: nothing for who lacks read_merge_request →
  // 404 Not found), then authorize!(:destroy_merge_request) — owner_access.
  'merge requests: delete': {
    public: [401, 403, 403, 403, 403, 403, 204, 204],
    internal: [401, 403, 403, 403, 403, 403, 204, 204],
    private: [401, 404, 404, 403, 403, 403, 204, 204],
  },

  // Merge request notes: find_project_merge_request (404 Not found for a private project's guest).
  'merge request notes: list': {
    public: [401, 200, 200, 200, 200, 200, 200, 200],
    internal: [401, 200, 200, 200, 200, 200, 200, 200],
    private: [401, 404, 404, 200, 200, 200, 200, 200],
  },
  'merge request notes: get': {
    public: [401, 200, 200, 200, 200, 200, 200, 200],
    internal: [401, 200, 200, 200, 200, 200, 200, 200],
    private: [401, 404, 404, 200, 200, 200, 200, 200],
  },
  // create_note — guest_access (public_user_access included), once the merge request is found.
  'merge request notes: create': {
    public: [401, 201, 201, 201, 201, 201, 201, 201],
    internal: [401, 201, 201, 201, 201, 201, 201, 201],
    private: [401, 404, 404, 201, 201, 201, 201, 201],
  },
  // NotePolicy is_author.
  'merge request notes: update own': {
    public: [401, 200, 200, 200, 200, 200, 200, 200],
    internal: [401, 200, 200, 200, 200, 200, 200, 200],
    private: [401, 404, 404, 200, 200, 200, 200, 200],
  },
  'merge request notes: delete own': {
    public: [401, 204, 204, 204, 204, 204, 204, 204],
    internal: [401, 204, 204, 204, 204, 204, 204, 204],
    private: [401, 404, 404, 204, 204, 204, 204, 204],
  },
  // admin_note: master_access.
  "merge request notes: update others'": {
    public: [401, 403, 403, 403, 403, 200, 200, 200],
    internal: [401, 403, 403, 403, 403, 200, 200, 200],
    private: [401, 404, 404, 403, 403, 200, 200, 200],
  },
  "merge request notes: delete others'": {
    public: [401, 403, 403, 403, 403, 204, 204, 204],
    internal: [401, 403, 403, 403, 403, 204, 204, 204],
    private: [401, 404, 404, 403, 403, 204, 204, 204],
  },
  // ~editable prevents admin_note.
  'merge request notes: edit a system note': {
    public: [401, 403, 403, 403, 403, 403, 403, 403],
    internal: [401, 403, 403, 403, 403, 403, 403, 403],
    private: [401, 404, 404, 403, 403, 403, 403, 403],
  },

  // Snippets (the shared snippet has its project's visibility) -----------------------------------
  // SnippetsFinder(project): read_project_snippet on the project (guest_access / public_access);
  // members see every snippet, others public_to_user (public, and internal when signed in).
  'snippets: list': {
    public: [401, 200, 200, 200, 200, 200, 200, 200],
    internal: [401, 200, 200, 200, 200, 200, 200, 200],
    private: [401, 404, 200, 200, 200, 200, 200, 200],
  },
  'snippets: get': {
    public: [200, 200, 200, 200, 200, 200, 200, 200],
    internal: [404, 200, 200, 200, 200, 200, 200, 200],
    private: [404, 404, 200, 200, 200, 200, 200, 200],
  },
  'snippets: raw': {
    public: [200, 200, 200, 200, 200, 200, 200, 200],
    internal: [404, 200, 200, 200, 200, 200, 200, 200],
    private: [404, 404, 200, 200, 200, 200, 200, 200],
  },
  // authorize! :create_project_snippet — reporter_access.
  'snippets: create': {
    public: [401, 403, 403, 201, 201, 201, 201, 201],
    internal: [401, 403, 403, 201, 201, 201, 201, 201],
    private: [401, 404, 403, 201, 201, 201, 201, 201],
  },
  // authorize! :update_project_snippet — the author or admin, master_access via the project;
  // ProjectSnippetPolicy 10.x–12.x `rule { internal & ~is_author & ~admin }.prevent
  // :update_project_snippet, :admin_project_snippet`: on an INTERNAL snippet only its author and
  // admins (maintainers and owners were added to that exception only in later GitLab).
  'snippets: update': {
    public: [401, 403, 403, 403, 403, 200, 200, 200],
    internal: [401, 403, 403, 403, 403, 403, 403, 200],
    private: [401, 404, 403, 403, 403, 200, 200, 200],
  },
  // authorize! :admin_project_snippet — as update.
  'snippets: delete': {
    public: [401, 403, 403, 403, 403, 204, 204, 204],
    internal: [401, 403, 403, 403, 403, 403, 403, 204],
    private: [401, 404, 403, 403, 403, 204, 204, 204],
  },
  // A PRIVATE snippet in each project: `private_snippet & ~project.guest & ~admin & ~is_author`
  // prevents read_project_snippet; SnippetsFinder leaves it out for non-members.
  'private snippets: listed': {
    public: [401, 'hidden', 'shown', 'shown', 'shown', 'shown', 'shown', 'shown'],
    internal: [401, 'hidden', 'shown', 'shown', 'shown', 'shown', 'shown', 'shown'],
    private: [401, 404, 'shown', 'shown', 'shown', 'shown', 'shown', 'shown'],
  },
  // GET: snippets_for_current_user.find → RecordNotFound, `404 Not found`.
  'private snippets: get': {
    public: [404, 404, 200, 200, 200, 200, 200, 200],
    internal: [404, 404, 200, 200, 200, 200, 200, 200],
    private: [404, 404, 200, 200, 200, 200, 200, 200],
  },
  // raw: find_by then not_found!('Snippet') → `404 Snippet Not Found`.
  'private snippets: raw': {
    public: [404, 404, 200, 200, 200, 200, 200, 200],
    internal: [404, 404, 200, 200, 200, 200, 200, 200],
    private: [404, 404, 200, 200, 200, 200, 200, 200],
  },
  // find_project_snippet (SnippetsFinder) → `404 Not found`.
  'private snippets: notes list': {
    public: [401, 404, 200, 200, 200, 200, 200, 200],
    internal: [401, 404, 200, 200, 200, 200, 200, 200],
    private: [401, 404, 200, 200, 200, 200, 200, 200],
  },

  // Snippet notes (on the shared snippet): read_project_snippet, then NotePolicy.
  'snippet notes: list': {
    public: [401, 200, 200, 200, 200, 200, 200, 200],
    internal: [401, 200, 200, 200, 200, 200, 200, 200],
    private: [401, 404, 200, 200, 200, 200, 200, 200],
  },
  'snippet notes: get': {
    public: [401, 200, 200, 200, 200, 200, 200, 200],
    internal: [401, 200, 200, 200, 200, 200, 200, 200],
    private: [401, 404, 200, 200, 200, 200, 200, 200],
  },
  // create_note delegated to the project — guest_access (public_user_access included).
  'snippet notes: create': {
    public: [401, 201, 201, 201, 201, 201, 201, 201],
    internal: [401, 201, 201, 201, 201, 201, 201, 201],
    private: [401, 404, 201, 201, 201, 201, 201, 201],
  },
  'snippet notes: update own': {
    public: [401, 200, 200, 200, 200, 200, 200, 200],
    internal: [401, 200, 200, 200, 200, 200, 200, 200],
    private: [401, 404, 200, 200, 200, 200, 200, 200],
  },
  'snippet notes: delete own': {
    public: [401, 204, 204, 204, 204, 204, 204, 204],
    internal: [401, 204, 204, 204, 204, 204, 204, 204],
    private: [401, 404, 204, 204, 204, 204, 204, 204],
  },
  // admin_note: master_access (the internal-snippet exception is about the snippet, not notes).
  "snippet notes: update others'": {
    public: [401, 403, 403, 403, 403, 200, 200, 200],
    internal: [401, 403, 403, 403, 403, 200, 200, 200],
    private: [401, 404, 403, 403, 403, 200, 200, 200],
  },
  "snippet notes: delete others'": {
    public: [401, 403, 403, 403, 403, 204, 204, 204],
    internal: [401, 403, 403, 403, 403, 204, 204, 204],
    private: [401, 404, 403, 403, 403, 204, 204, 204],
  },

  // Epics (group visibility) ----------------------------------------------------------------------
  // read_epic = read_group (public: all; internal: signed-in non-external; private: members).
  'epics: list': {
    public: [200, 200, 200, 200, 200, 200, 200, 200],
    internal: [404, 200, 200, 200, 200, 200, 200, 200],
    private: [404, 404, 200, 200, 200, 200, 200, 200],
  },
  'epics: get': {
    public: [200, 200, 200, 200, 200, 200, 200, 200],
    internal: [404, 200, 200, 200, 200, 200, 200, 200],
    private: [404, 404, 200, 200, 200, 200, 200, 200],
  },
  // authorize_can_create! → admin_epic on the group — reporter.
  'epics: create': {
    public: [401, 403, 403, 201, 201, 201, 201, 201],
    internal: [401, 403, 403, 201, 201, 201, 201, 201],
    private: [401, 404, 403, 201, 201, 201, 201, 201],
  },
  // authorize_can_admin! → admin_epic — reporter.
  'epics: update': {
    public: [401, 403, 403, 200, 200, 200, 200, 200],
    internal: [401, 403, 403, 200, 200, 200, 200, 200],
    private: [401, 404, 403, 200, 200, 200, 200, 200],
  },
  // authorize_can_destroy! → destroy_epic — owner (an admin's group access is owner's).
  'epics: delete': {
    public: [401, 403, 403, 403, 403, 403, 204, 204],
    internal: [401, 403, 403, 403, 403, 403, 204, 204],
    private: [401, 404, 403, 403, 403, 403, 204, 204],
  },

  // Epic notes: EpicPolicy read_epic → read_note.
  'epic notes: list': {
    public: [401, 200, 200, 200, 200, 200, 200, 200],
    internal: [401, 200, 200, 200, 200, 200, 200, 200],
    private: [401, 404, 200, 200, 200, 200, 200, 200],
  },
  'epic notes: get': {
    public: [401, 200, 200, 200, 200, 200, 200, 200],
    internal: [401, 200, 200, 200, 200, 200, 200, 200],
    private: [401, 404, 200, 200, 200, 200, 200, 200],
  },
  // EpicPolicy (11.x): `rule { can?(:read_epic) & ~anonymous }.enable :create_note` (10.x asked
  // for update_epic, i.e. reporter).
  'epic notes: create': {
    public: [401, 201, 201, 201, 201, 201, 201, 201],
    internal: [401, 201, 201, 201, 201, 201, 201, 201],
    private: [401, 404, 201, 201, 201, 201, 201, 201],
  },
  'epic notes: update own': {
    public: [401, 200, 200, 200, 200, 200, 200, 200],
    internal: [401, 200, 200, 200, 200, 200, 200, 200],
    private: [401, 404, 200, 200, 200, 200, 200, 200],
  },
  'epic notes: delete own': {
    public: [401, 204, 204, 204, 204, 204, 204, 204],
    internal: [401, 204, 204, 204, 204, 204, 204, 204],
    private: [401, 404, 204, 204, 204, 204, 204, 204],
  },
  // EpicPolicy: `rule { can?(:owner_access) | can?(:maintainer_access) }.enable :admin_note`.
  "epic notes: update others'": {
    public: [401, 403, 403, 403, 403, 200, 200, 200],
    internal: [401, 403, 403, 403, 403, 200, 200, 200],
    private: [401, 404, 403, 403, 403, 200, 200, 200],
  },
  "epic notes: delete others'": {
    public: [401, 403, 403, 403, 403, 204, 204, 204],
    internal: [401, 403, 403, 403, 403, 204, 204, 204],
    private: [401, 404, 403, 403, 403, 204, 204, 204],
  },
  // ~editable prevents admin_note.
  'epic notes: edit a system note': {
    public: [401, 403, 403, 403, 403, 403, 403, 403],
    internal: [401, 403, 403, 403, 403, 403, 403, 403],
    private: [401, 404, 403, 403, 403, 403, 403, 403],
  },

  // Confidential issues (10 columns: ... admin, author, assignee) --------------------------------
  // IssuesFinder / IssuePolicy can_read_confidential: reporter+, admin, the author, the assignees.
  // "assigned": opened by the other developer, assigned to `assignee`; "authored": opened by
  // `author` (a guest). Lists leave out what the caller cannot see.
  'confidential issues: listed (assigned)': {
    public: ['hidden', 'hidden', 'hidden', 'shown', 'shown', 'shown', 'shown', 'shown', 'hidden', 'shown'],
    internal: [404, 'hidden', 'hidden', 'shown', 'shown', 'shown', 'shown', 'shown', 'hidden', 'shown'],
    private: [404, 404, 'hidden', 'shown', 'shown', 'shown', 'shown', 'shown', 'hidden', 'shown'],
  },
  'confidential issues: listed (authored)': {
    public: ['hidden', 'hidden', 'hidden', 'shown', 'shown', 'shown', 'shown', 'shown', 'shown', 'hidden'],
    internal: [404, 'hidden', 'hidden', 'shown', 'shown', 'shown', 'shown', 'shown', 'shown', 'hidden'],
    private: [404, 404, 'hidden', 'shown', 'shown', 'shown', 'shown', 'shown', 'shown', 'hidden'],
  },
  // find_project_issue (IssuesFinder) → `404 Not found`.
  'confidential issues: get (assigned)': {
    public: [404, 404, 404, 200, 200, 200, 200, 200, 404, 200],
    internal: [404, 404, 404, 200, 200, 200, 200, 200, 404, 200],
    private: [404, 404, 404, 200, 200, 200, 200, 200, 404, 200],
  },
  'confidential issues: get (authored)': {
    public: [404, 404, 404, 200, 200, 200, 200, 200, 200, 404],
    internal: [404, 404, 404, 200, 200, 200, 200, 200, 200, 404],
    private: [404, 404, 404, 200, 200, 200, 200, 200, 200, 404],
  },
  // Notes find the issue through find_project_issue: 404 for who cannot see it.
  'confidential issues: notes list (assigned)': {
    public: [401, 404, 404, 200, 200, 200, 200, 200, 404, 200],
    internal: [401, 404, 404, 200, 200, 200, 200, 200, 404, 200],
    private: [401, 404, 404, 200, 200, 200, 200, 200, 404, 200],
  },
  'confidential issues: note get (assigned)': {
    public: [401, 404, 404, 200, 200, 200, 200, 200, 404, 200],
    internal: [401, 404, 404, 200, 200, 200, 200, 200, 404, 200],
    private: [401, 404, 404, 200, 200, 200, 200, 200, 404, 200],
  },
  'confidential issues: note create (assigned)': {
    public: [401, 404, 404, 201, 201, 201, 201, 201, 404, 201],
    internal: [401, 404, 404, 201, 201, 201, 201, 201, 404, 201],
    private: [401, 404, 404, 201, 201, 201, 201, 201, 404, 201],
  },
  // GitLab 10.x finds the issue for PUT and DELETE without the confidentiality filter and then
  // answers 403; here, as everywhere else in this service, a confidential issue is 404 to whoever
  // may not see it (the issue's rule: "everyone else 404"), and 403 only refuses those who see it.
  'confidential issues: update (assigned)': {
    public: [401, 404, 404, 200, 200, 200, 200, 200, 404, 200],
    internal: [401, 404, 404, 200, 200, 200, 200, 200, 404, 200],
    private: [401, 404, 404, 200, 200, 200, 200, 200, 404, 200],
  },
  // destroy_issue: owners and admins; reporters to maintainers see it and are refused.
  'confidential issues: delete': {
    public: [401, 404, 404, 403, 403, 403, 204, 204, 404, 404],
    internal: [401, 404, 404, 403, 403, 403, 204, 204, 404, 404],
    private: [401, 404, 404, 403, 403, 403, 204, 204, 404, 404],
  },
} as const satisfies Record<string, Row>;

type RowName = keyof typeof MATRIX;

// ------------------------------------------------------------------------------------------------
// The world
// ------------------------------------------------------------------------------------------------

type Kind = 'issue' | 'merge request' | 'snippet' | 'epic';
type Member = Exclude<Caller, 'anonymous' | 'non-member' | 'owner' | 'admin'>;
const LEVELS: Record<Member | 'bystander', number> = {
  guest: 10,
  reporter: 20,
  developer: 30,
  maintainer: 40,
  author: 10,
  assignee: 10,
  bystander: 30,
};

interface Shared {
  /** iid of issues, merge requests and epics; id of snippets. */
  ref: number;
  /** The epic's id (its notes' routes name it). */
  id: number;
  noteId: number;
  noteBody: string;
  systemNoteId?: number;
  code?: string;
}

/** A cell's own targets: writes act on these only. */
interface Targets {
  issue?: number;
  issueNote?: number;
  confidential?: number;
  mergeRequest?: number;
  mergeRequestNote?: number;
  snippet?: number;
  snippetNote?: number;
  epic?: number;
  epicNote?: number;
  /** Notes the caller created in this cell, by parent kind. */
  own: Partial<Record<Kind, number>>;
}

interface Place {
  visibility: Visibility;
  groupId: number;
  projectId: number;
  issue?: Shared;
  assigned?: Shared;
  authored?: Shared;
  mergeRequest?: Shared;
  snippet?: Shared;
  privateSnippet?: Shared;
  epic?: Shared;
  cells: Record<Caller, Targets>;
}

interface World {
  users: Record<Exclude<Caller, 'anonymous' | 'admin'> | 'bystander', TestUser>;
  places: Record<Visibility, Place>;
  /** Why a kind's world could not be built (the rows of that kind fail with it). */
  setupErrors: Partial<Record<Kind | 'confidential', string>>;
}

let world: World;
const results = new Map<string, Result>();

interface Result {
  response: ApiResponse;
  /** What the cell acted on when it had no own note (the create had failed). */
  hint?: string;
}

/** At most this many requests in flight: the local runtime serves them in one process. */
const IN_FLIGHT = 24;
let running = 0;
const waiting: (() => void)[] = [];

async function call<T = unknown>(
  method: string,
  path: string,
  options: { token?: string | null; json?: unknown } = {},
): Promise<ApiResponse<T>> {
  if (running >= IN_FLIGHT) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await api<T>(method, path, options);
  } finally {
    running--;
    waiting.shift()?.();
  }
}

const tokenOf = (caller: Caller | 'bystander'): string | null => {
  if (caller === 'anonymous') return null;
  if (caller === 'admin') return rootToken();
  return world.users[caller].token;
};

const emptyTargets = (): Targets => ({ own: {} });

async function buildPlace(visibility: Visibility): Promise<Place> {
  const { users } = world;
  const path = unique(`nauthz-${visibility}`);
  const group = await must(
    call<{ id: number }>('POST', '/groups', {
      token: users.owner.token,
      json: { name: path, path, visibility },
    }),
    201,
    `${visibility} group`,
  );
  await Promise.all(
    (Object.keys(LEVELS) as (Member | 'bystander')[]).map((member) =>
      must(
        call('POST', `/groups/${group.id}/members`, {
          token: users.owner.token,
          json: { user_id: users[member].id, access_level: LEVELS[member] },
        }),
        201,
        `add ${member}`,
      ),
    ),
  );
  const project = await must(
    call<{ id: number }>('POST', '/projects', {
      token: users.owner.token,
      json: {
        name: unique('Noteables'),
        namespace_id: group.id,
        visibility,
        issues_enabled: true,
        merge_requests_enabled: true,
        snippets_enabled: true,
      },
    }),
    201,
    `${visibility} project`,
  );
  const cells = Object.fromEntries(CONFIDENTIAL_CALLERS.map((caller) => [caller, emptyTargets()])) as Record<
    Caller,
    Targets
  >;
  return { visibility, groupId: group.id, projectId: project.id, cells };
}

const by = (caller: Caller | 'bystander') => ({ token: tokenOf(caller) });

/** A note by the bystander on a parent's notes path; its id. */
async function noteOn(notesPath: string, body: string): Promise<number> {
  const note = await must(
    call<{ id: number }>('POST', notesPath, { ...by('bystander'), json: { body } }),
    201,
    `note on ${notesPath}`,
  );
  return note.id;
}

/** The id of the (first) system note of a parent. */
async function systemNoteOf(notesPath: string): Promise<number> {
  const notes = await must(
    call<{ id: number; system: boolean }[]>('GET', `${notesPath}?sort=asc&per_page=100`, by('bystander')),
    200,
    `notes of ${notesPath}`,
  );
  const system = notes.find((note) => note.system);
  if (!system) throw new Error(`no system note on ${notesPath}: ${JSON.stringify(notes)}`);
  return system.id;
}

const projectPath = (place: Place) => `/projects/${place.projectId}`;
const groupPath = (place: Place) => `/groups/${place.groupId}`;

async function buildIssues(place: Place): Promise<void> {
  const base = `${projectPath(place)}/issues`;
  const open = async (caller: Caller | 'bystander', json: Record<string, unknown>, what: string) =>
    (await must(call<{ iid: number }>('POST', base, { ...by(caller), json }), 201, what)).iid;
  // Created first, in this order, so that the first page in creation order holds them.
  const shared = await open('bystander', { title: 'shared issue' }, 'shared issue');
  const assigned = await open(
    'bystander',
    { title: 'confidential, assigned', confidential: true, assignee_ids: [world.users.assignee.id] },
    'confidential assigned issue',
  );
  const authored = await open('author', { title: 'confidential, authored', confidential: true }, 'authored');
  const noteBody = `shared note ${unique('n')}`;
  const noteId = await noteOn(`${base}/${shared}/notes`, noteBody);
  await must(
    call('PUT', `${base}/${shared}`, { ...by('bystander'), json: { state_event: 'close' } }),
    200,
    'close shared issue',
  );
  const systemNoteId = await systemNoteOf(`${base}/${shared}/notes`);
  const assignedBody = `confidential note ${unique('n')}`;
  const assignedNote = await noteOn(`${base}/${assigned}/notes`, assignedBody);
  place.issue = { ref: shared, id: shared, noteId, noteBody, systemNoteId };
  place.assigned = { ref: assigned, id: assigned, noteId: assignedNote, noteBody: assignedBody };
  place.authored = { ref: authored, id: authored, noteId: 0, noteBody: '' };
  for (const caller of CALLERS) {
    place.cells[caller].issue = await open('bystander', { title: `target of ${caller}` }, 'cell issue');
  }
  for (const caller of CONFIDENTIAL_CALLERS) {
    place.cells[caller].confidential = await open(
      'bystander',
      { title: `confidential target of ${caller}`, confidential: true },
      'cell confidential issue',
    );
  }
  await Promise.all(
    CALLERS.map(async (caller) => {
      place.cells[caller].issueNote = await noteOn(`${base}/${shared}/notes`, `others' note for ${caller}`);
    }),
  );
}

async function buildMergeRequests(place: Place): Promise<void> {
  const base = `${projectPath(place)}/merge_requests`;
  const open = async (title: string) =>
    (
      await must(
        call<{ iid: number }>('POST', base, {
          ...by('bystander'),
          json: { title, source_branch: unique('feature'), target_branch: 'master' },
        }),
        201,
        `merge request ${title}`,
      )
    ).iid;
  const shared = await open('shared merge request');
  const noteBody = `shared note ${unique('n')}`;
  const noteId = await noteOn(`${base}/${shared}/notes`, noteBody);
  await must(
    call('PUT', `${base}/${shared}`, { ...by('bystander'), json: { state_event: 'close' } }),
    200,
    'close shared merge request',
  );
  const systemNoteId = await systemNoteOf(`${base}/${shared}/notes`);
  place.mergeRequest = { ref: shared, id: shared, noteId, noteBody, systemNoteId };
  for (const caller of CALLERS) place.cells[caller].mergeRequest = await open(`target of ${caller}`);
  await Promise.all(
    CALLERS.map(async (caller) => {
      place.cells[caller].mergeRequestNote = await noteOn(
        `${base}/${shared}/notes`,
        `others' note for ${caller}`,
      );
    }),
  );
}

async function buildSnippets(place: Place): Promise<void> {
  const base = `${projectPath(place)}/snippets`;
  const create = async (title: string, visibility: Visibility, code: string) =>
    (
      await must(
        call<{ id: number }>('POST', base, {
          ...by('bystander'),
          json: { title, file_name: 'snippet.txt', code, visibility },
        }),
        201,
        `snippet ${title}`,
      )
    ).id;
  const code = `shared code ${unique('c')}`;
  const shared = await create('shared snippet', place.visibility, code);
  const privateCode = `private code ${unique('c')}`;
  const hidden = await create('private snippet', 'private', privateCode);
  const noteBody = `shared note ${unique('n')}`;
  const noteId = await noteOn(`${base}/${shared}/notes`, noteBody);
  const hiddenNoteBody = `private snippet note ${unique('n')}`;
  const hiddenNote = await noteOn(`${base}/${hidden}/notes`, hiddenNoteBody);
  place.snippet = { ref: shared, id: shared, noteId, noteBody, code };
  place.privateSnippet = {
    ref: hidden,
    id: hidden,
    noteId: hiddenNote,
    noteBody: hiddenNoteBody,
    code: privateCode,
  };
  await Promise.all(
    CALLERS.map(async (caller) => {
      const cell = place.cells[caller];
      cell.snippet = await create(`target of ${caller}`, place.visibility, `code of ${caller}`);
      cell.snippetNote = await noteOn(`${base}/${shared}/notes`, `others' note for ${caller}`);
    }),
  );
}

async function buildEpics(place: Place): Promise<void> {
  const base = `${groupPath(place)}/epics`;
  const open = async (title: string) =>
    must(
      call<{ id: number; iid: number }>('POST', base, { ...by('bystander'), json: { title } }),
      201,
      title,
    );
  const shared = await open('shared epic');
  const noteBody = `shared note ${unique('n')}`;
  const noteId = await noteOn(`${base}/${shared.id}/notes`, noteBody);
  await must(
    call('PUT', `${base}/${shared.iid}`, { ...by('bystander'), json: { state_event: 'close' } }),
    200,
    'close shared epic',
  );
  const systemNoteId = await systemNoteOf(`${base}/${shared.id}/notes`);
  place.epic = { ref: shared.iid, id: shared.id, noteId, noteBody, systemNoteId };
  for (const caller of CALLERS) place.cells[caller].epic = (await open(`target of ${caller}`)).iid;
  await Promise.all(
    CALLERS.map(async (caller) => {
      place.cells[caller].epicNote = await noteOn(`${base}/${shared.id}/notes`, `others' note for ${caller}`);
    }),
  );
}

async function buildWorld(): Promise<void> {
  const names = ['non-member', 'guest', 'reporter', 'developer', 'maintainer', 'owner', 'author', 'assignee'];
  const created = await Promise.all([...names, 'bystander'].map(() => createUser()));
  world = {
    users: Object.fromEntries([...names, 'bystander'].map((name, i) => [name, created[i]])) as World['users'],
    places: {} as Record<Visibility, Place>,
    setupErrors: {},
  };
  const places = await Promise.all(VISIBILITIES.map(buildPlace));
  for (const place of places) world.places[place.visibility] = place;
  const builders: [Kind, (place: Place) => Promise<void>][] = [
    ['issue', buildIssues],
    ['merge request', buildMergeRequests],
    ['snippet', buildSnippets],
    ['epic', buildEpics],
  ];
  await Promise.all(
    places.flatMap((place) =>
      builders.map(async ([kind, build]) => {
        try {
          await build(place);
        } catch (error) {
          world.setupErrors[kind] ??= `${place.visibility}: ${(error as Error).message}`;
        }
      }),
    ),
  );
}

// ------------------------------------------------------------------------------------------------
// The operations of the rows: the request each cell makes and what a success must show.
// ------------------------------------------------------------------------------------------------

interface Cell {
  place: Place;
  caller: Caller;
  targets: Targets;
}

type Request = { method: string; path: string; json?: unknown; hint?: string };

interface Operation {
  kind: Kind;
  /** The message of a 404 that is not the project's or group's (default `404 Not found`). */
  notFound?: string;
  confidential?: boolean;
  request: (cell: Cell) => Request;
  /** What is wrong with a successful answer, if anything. */
  check: (response: ApiResponse, cell: Cell) => string | undefined;
  /** Remembers what the answer created. */
  after?: (response: ApiResponse, cell: Cell) => void;
}

const need = <T>(value: T | undefined, what: string): T => {
  if (value === undefined) throw new Error(`not set up: ${what}`);
  return value;
};

type Item = {
  id: number;
  iid?: number;
  title?: string;
  description?: string;
  body?: string;
  state?: string;
  system?: boolean;
  confidential?: boolean;
};

const listHas = (key: 'id' | 'iid', value: number) => (response: ApiResponse) =>
  Array.isArray(response.body) && (response.body as Item[]).some((item) => item[key] === value)
    ? undefined
    : `list lacks ${key} ${value}: ${response.text.slice(0, 200)}`;

const fieldIs =
  <K extends keyof Item>(key: K, value: Item[K]) =>
  (response: ApiResponse) =>
    (response.body as Item | undefined)?.[key] === value
      ? undefined
      : `${key} is not ${JSON.stringify(value)}: ${response.text.slice(0, 200)}`;

const emptyBody = (response: ApiResponse) => (response.text === '' ? undefined : `body: ${response.text}`);

const issues = (cell: Cell) => `${projectPath(cell.place)}/issues`;
const mergeRequests = (cell: Cell) => `${projectPath(cell.place)}/merge_requests`;
const snippets = (cell: Cell) => `${projectPath(cell.place)}/snippets`;
const epics = (cell: Cell) => `${groupPath(cell.place)}/epics`;

/** The notes operations every parent kind shares. */
function noteOperations(
  kind: Kind,
  shared: (cell: Cell) => Shared | undefined,
  notesPath: (cell: Cell, parent: Shared) => string,
  othersNote: (targets: Targets) => number | undefined,
) {
  const parentOf = (cell: Cell) => need(shared(cell), `shared ${kind}`);
  const notes = (cell: Cell) => notesPath(cell, parentOf(cell));
  const newBody = (cell: Cell, what: string) => `${what} by ${cell.caller} (${cell.place.visibility})`;
  /** The caller's own note, or (when the create failed) another's, saying so. */
  const own = (cell: Cell): { id: number; hint?: string } => {
    const id = cell.targets.own[kind];
    if (id !== undefined) return { id };
    return { id: need(othersNote(cell.targets), 'others note'), hint: 'no own note (its create failed)' };
  };
  return {
    list: {
      kind,
      request: (cell: Cell) => ({ method: 'GET', path: `${notes(cell)}?sort=asc&per_page=2` }),
      check: (response: ApiResponse, cell: Cell) => listHas('id', parentOf(cell).noteId)(response),
    },
    get: {
      kind,
      request: (cell: Cell) => ({ method: 'GET', path: `${notes(cell)}/${parentOf(cell).noteId}` }),
      check: (response: ApiResponse, cell: Cell) =>
        fieldIs('id', parentOf(cell).noteId)(response) ?? fieldIs('body', parentOf(cell).noteBody)(response),
    },
    create: {
      kind,
      request: (cell: Cell) => ({ method: 'POST', path: notes(cell), json: { body: newBody(cell, 'note') } }),
      check: (response: ApiResponse, cell: Cell) =>
        fieldIs('body', newBody(cell, 'note'))(response) ?? fieldIs('system', false)(response),
      after: (response: ApiResponse, cell: Cell) => {
        if (response.status === 201) cell.targets.own[kind] = (response.body as Item).id;
      },
    },
    updateOwn: {
      kind,
      request: (cell: Cell) => {
        const { id, hint } = own(cell);
        return { method: 'PUT', path: `${notes(cell)}/${id}`, json: { body: newBody(cell, 'edit') }, hint };
      },
      check: (response: ApiResponse, cell: Cell) => fieldIs('body', newBody(cell, 'edit'))(response),
    },
    deleteOwn: {
      kind,
      request: (cell: Cell) => {
        const { id, hint } = own(cell);
        return { method: 'DELETE', path: `${notes(cell)}/${id}`, hint };
      },
      check: emptyBody,
    },
    updateOthers: {
      kind,
      request: (cell: Cell) => ({
        method: 'PUT',
        path: `${notes(cell)}/${need(othersNote(cell.targets), 'others note')}`,
        json: { body: newBody(cell, "others' edit") },
      }),
      check: (response: ApiResponse, cell: Cell) => fieldIs('body', newBody(cell, "others' edit"))(response),
    },
    deleteOthers: {
      kind,
      request: (cell: Cell) => ({
        method: 'DELETE',
        path: `${notes(cell)}/${need(othersNote(cell.targets), 'others note')}`,
      }),
      check: emptyBody,
    },
    editSystem: {
      kind,
      request: (cell: Cell) => ({
        method: 'PUT',
        path: `${notes(cell)}/${need(parentOf(cell).systemNoteId, 'system note')}`,
        json: { body: newBody(cell, 'system edit') },
      }),
      check: () => 'a system note was edited',
    },
  } satisfies Record<string, Operation>;
}

const issueNotes = noteOperations(
  'issue',
  (cell) => cell.place.issue,
  (cell, parent) => `${issues(cell)}/${parent.ref}/notes`,
  (targets) => targets.issueNote,
);
const mergeRequestNotes = noteOperations(
  'merge request',
  (cell) => cell.place.mergeRequest,
  (cell, parent) => `${mergeRequests(cell)}/${parent.ref}/notes`,
  (targets) => targets.mergeRequestNote,
);
const snippetNotes = noteOperations(
  'snippet',
  (cell) => cell.place.snippet,
  (cell, parent) => `${snippets(cell)}/${parent.ref}/notes`,
  (targets) => targets.snippetNote,
);
const epicNotes = noteOperations(
  'epic',
  (cell) => cell.place.epic,
  (cell, parent) => `${epics(cell)}/${parent.id}/notes`,
  (targets) => targets.epicNote,
);

const shared = (
  cell: Cell,
  key: 'issue' | 'mergeRequest' | 'snippet' | 'privateSnippet' | 'epic' | 'assigned' | 'authored',
) => need(cell.place[key], key);
const titled = (cell: Cell, what: string) => `${what} by ${cell.caller} (${cell.place.visibility})`;
const target = (cell: Cell, key: 'issue' | 'mergeRequest' | 'snippet' | 'epic' | 'confidential') =>
  need(cell.targets[key], `${key} target of ${cell.caller}`);

/** Whether a list shows an item: the outcome of a 'shown'/'hidden' row. */
const listedOutcome =
  (key: 'id' | 'iid', value: (cell: Cell) => number) => (response: ApiResponse, cell: Cell) =>
    Array.isArray(response.body) && (response.body as Item[]).some((item) => item[key] === value(cell))
      ? 'shown'
      : 'hidden';

const LISTED: Partial<Record<RowName, (response: ApiResponse, cell: Cell) => 'shown' | 'hidden'>> = {
  'private snippets: listed': listedOutcome('id', (cell) => shared(cell, 'privateSnippet').id),
  'confidential issues: listed (assigned)': listedOutcome('iid', (cell) => shared(cell, 'assigned').ref),
  'confidential issues: listed (authored)': listedOutcome('iid', (cell) => shared(cell, 'authored').ref),
};

/** The first issues in creation order: the shared one, then the two confidential ones. */
const firstIssues = (cell: Cell): Request => ({
  method: 'GET',
  path: `${issues(cell)}?order_by=created_at&sort=asc&per_page=3`,
});

const OPERATIONS: Record<RowName, Operation> = {
  'issues: list': {
    kind: 'issue',
    request: firstIssues,
    check: (response, cell) => listHas('iid', shared(cell, 'issue').ref)(response),
  },
  'issues: get': {
    kind: 'issue',
    request: (cell) => ({ method: 'GET', path: `${issues(cell)}/${shared(cell, 'issue').ref}` }),
    check: (response, cell) => fieldIs('iid', shared(cell, 'issue').ref)(response),
  },
  'issues: create': {
    kind: 'issue',
    request: (cell) => ({ method: 'POST', path: issues(cell), json: { title: titled(cell, 'issue') } }),
    check: (response, cell) => fieldIs('title', titled(cell, 'issue'))(response),
  },
  'issues: update': {
    kind: 'issue',
    request: (cell) => ({
      method: 'PUT',
      path: `${issues(cell)}/${target(cell, 'issue')}`,
      json: { title: titled(cell, 'renamed') },
    }),
    check: (response, cell) => fieldIs('title', titled(cell, 'renamed'))(response),
  },
  'issues: close': {
    kind: 'issue',
    request: (cell) => ({
      method: 'PUT',
      path: `${issues(cell)}/${target(cell, 'issue')}`,
      json: { state_event: 'close' },
    }),
    check: fieldIs('state', 'closed'),
  },
  'issue notes: list': issueNotes.list,
  'issue notes: get': issueNotes.get,
  'issue notes: create': issueNotes.create,
  'issue notes: update own': issueNotes.updateOwn,
  'issue notes: delete own': issueNotes.deleteOwn,
  "issue notes: update others'": issueNotes.updateOthers,
  "issue notes: delete others'": issueNotes.deleteOthers,
  'issue notes: edit a system note': issueNotes.editSystem,
  'issues: delete': {
    kind: 'issue',
    request: (cell) => ({ method: 'DELETE', path: `${issues(cell)}/${target(cell, 'issue')}` }),
    check: emptyBody,
  },

  'merge requests: list': {
    kind: 'merge request',
    request: (cell) => ({
      method: 'GET',
      path: `${mergeRequests(cell)}?order_by=created_at&sort=asc&per_page=1`,
    }),
    check: (response, cell) => listHas('iid', shared(cell, 'mergeRequest').ref)(response),
  },
  'merge requests: get': {
    kind: 'merge request',
    request: (cell) => ({
      method: 'GET',
      path: `${mergeRequests(cell)}/${shared(cell, 'mergeRequest').ref}`,
    }),
    check: (response, cell) => fieldIs('iid', shared(cell, 'mergeRequest').ref)(response),
  },
  'merge requests: create': {
    kind: 'merge request',
    request: (cell) => ({
      method: 'POST',
      path: mergeRequests(cell),
      json: {
        title: titled(cell, 'merge request'),
        source_branch: unique('branch'),
        target_branch: 'master',
      },
    }),
    check: (response, cell) => fieldIs('title', titled(cell, 'merge request'))(response),
  },
  'merge requests: update': {
    kind: 'merge request',
    request: (cell) => ({
      method: 'PUT',
      path: `${mergeRequests(cell)}/${target(cell, 'mergeRequest')}`,
      json: { title: titled(cell, 'renamed') },
    }),
    check: (response, cell) => fieldIs('title', titled(cell, 'renamed'))(response),
  },
  'merge request notes: list': mergeRequestNotes.list,
  'merge request notes: get': mergeRequestNotes.get,
  'merge request notes: create': mergeRequestNotes.create,
  'merge request notes: update own': mergeRequestNotes.updateOwn,
  'merge request notes: delete own': mergeRequestNotes.deleteOwn,
  "merge request notes: update others'": mergeRequestNotes.updateOthers,
  "merge request notes: delete others'": mergeRequestNotes.deleteOthers,
  'merge request notes: edit a system note': mergeRequestNotes.editSystem,
  'merge requests: delete': {
    kind: 'merge request',
    request: (cell) => ({ method: 'DELETE', path: `${mergeRequests(cell)}/${target(cell, 'mergeRequest')}` }),
    check: emptyBody,
  },

  'snippets: list': {
    kind: 'snippet',
    request: (cell) => ({ method: 'GET', path: `${snippets(cell)}?per_page=100` }),
    check: (response, cell) => listHas('id', shared(cell, 'snippet').id)(response),
  },
  'snippets: get': {
    kind: 'snippet',
    request: (cell) => ({ method: 'GET', path: `${snippets(cell)}/${shared(cell, 'snippet').id}` }),
    check: (response, cell) => fieldIs('id', shared(cell, 'snippet').id)(response),
  },
  'snippets: raw': {
    kind: 'snippet',
    request: (cell) => ({ method: 'GET', path: `${snippets(cell)}/${shared(cell, 'snippet').id}/raw` }),
    check: (response, cell) =>
      response.text === shared(cell, 'snippet').code &&
      response.headers.get('content-type')?.startsWith('text/plain')
        ? undefined
        : `raw: ${response.headers.get('content-type')} ${response.text.slice(0, 200)}`,
  },
  'snippets: create': {
    kind: 'snippet',
    request: (cell) => ({
      method: 'POST',
      path: snippets(cell),
      json: { title: titled(cell, 'snippet'), file_name: 'new.txt', code: 'new', visibility: 'private' },
    }),
    check: (response, cell) => fieldIs('title', titled(cell, 'snippet'))(response),
  },
  'snippets: update': {
    kind: 'snippet',
    request: (cell) => ({
      method: 'PUT',
      path: `${snippets(cell)}/${target(cell, 'snippet')}`,
      json: { title: titled(cell, 'renamed') },
    }),
    check: (response, cell) => fieldIs('title', titled(cell, 'renamed'))(response),
  },
  'private snippets: listed': {
    kind: 'snippet',
    request: (cell) => ({ method: 'GET', path: `${snippets(cell)}?per_page=100` }),
    check: (response, cell) => listHas('id', shared(cell, 'snippet').id)(response),
  },
  'private snippets: get': {
    kind: 'snippet',
    request: (cell) => ({ method: 'GET', path: `${snippets(cell)}/${shared(cell, 'privateSnippet').id}` }),
    check: (response, cell) => fieldIs('id', shared(cell, 'privateSnippet').id)(response),
  },
  'private snippets: raw': {
    kind: 'snippet',
    notFound: '404 Snippet Not Found',
    request: (cell) => ({
      method: 'GET',
      path: `${snippets(cell)}/${shared(cell, 'privateSnippet').id}/raw`,
    }),
    check: (response, cell) =>
      response.text === shared(cell, 'privateSnippet').code
        ? undefined
        : `raw: ${response.text.slice(0, 200)}`,
  },
  'private snippets: notes list': {
    kind: 'snippet',
    request: (cell) => ({
      method: 'GET',
      path: `${snippets(cell)}/${shared(cell, 'privateSnippet').id}/notes`,
    }),
    check: (response, cell) => listHas('id', shared(cell, 'privateSnippet').noteId)(response),
  },
  'snippet notes: list': snippetNotes.list,
  'snippet notes: get': snippetNotes.get,
  'snippet notes: create': snippetNotes.create,
  'snippet notes: update own': snippetNotes.updateOwn,
  'snippet notes: delete own': snippetNotes.deleteOwn,
  "snippet notes: update others'": snippetNotes.updateOthers,
  "snippet notes: delete others'": snippetNotes.deleteOthers,
  'snippets: delete': {
    kind: 'snippet',
    request: (cell) => ({ method: 'DELETE', path: `${snippets(cell)}/${target(cell, 'snippet')}` }),
    check: emptyBody,
  },

  'epics: list': {
    kind: 'epic',
    request: (cell) => ({ method: 'GET', path: `${epics(cell)}?order_by=created_at&sort=asc&per_page=1` }),
    check: (response, cell) => listHas('iid', shared(cell, 'epic').ref)(response),
  },
  'epics: get': {
    kind: 'epic',
    request: (cell) => ({ method: 'GET', path: `${epics(cell)}/${shared(cell, 'epic').ref}` }),
    check: (response, cell) => fieldIs('iid', shared(cell, 'epic').ref)(response),
  },
  'epics: create': {
    kind: 'epic',
    request: (cell) => ({ method: 'POST', path: epics(cell), json: { title: titled(cell, 'epic') } }),
    check: (response, cell) => fieldIs('title', titled(cell, 'epic'))(response),
  },
  'epics: update': {
    kind: 'epic',
    request: (cell) => ({
      method: 'PUT',
      path: `${epics(cell)}/${target(cell, 'epic')}`,
      json: { title: titled(cell, 'renamed') },
    }),
    check: (response, cell) => fieldIs('title', titled(cell, 'renamed'))(response),
  },
  'epic notes: list': epicNotes.list,
  'epic notes: get': epicNotes.get,
  'epic notes: create': epicNotes.create,
  'epic notes: update own': epicNotes.updateOwn,
  'epic notes: delete own': epicNotes.deleteOwn,
  "epic notes: update others'": epicNotes.updateOthers,
  "epic notes: delete others'": epicNotes.deleteOthers,
  'epic notes: edit a system note': epicNotes.editSystem,
  'epics: delete': {
    kind: 'epic',
    request: (cell) => ({ method: 'DELETE', path: `${epics(cell)}/${target(cell, 'epic')}` }),
    check: emptyBody,
  },

  'confidential issues: listed (assigned)': {
    kind: 'issue',
    confidential: true,
    request: firstIssues,
    check: (response, cell) => listHas('iid', shared(cell, 'issue').ref)(response),
  },
  'confidential issues: listed (authored)': {
    kind: 'issue',
    confidential: true,
    request: firstIssues,
    check: (response, cell) => listHas('iid', shared(cell, 'issue').ref)(response),
  },
  'confidential issues: get (assigned)': {
    kind: 'issue',
    confidential: true,
    request: (cell) => ({ method: 'GET', path: `${issues(cell)}/${shared(cell, 'assigned').ref}` }),
    check: (response, cell) =>
      fieldIs('iid', shared(cell, 'assigned').ref)(response) ?? fieldIs('confidential', true)(response),
  },
  'confidential issues: get (authored)': {
    kind: 'issue',
    confidential: true,
    request: (cell) => ({ method: 'GET', path: `${issues(cell)}/${shared(cell, 'authored').ref}` }),
    check: (response, cell) => fieldIs('iid', shared(cell, 'authored').ref)(response),
  },
  'confidential issues: notes list (assigned)': {
    kind: 'issue',
    confidential: true,
    request: (cell) => ({
      method: 'GET',
      path: `${issues(cell)}/${shared(cell, 'assigned').ref}/notes?sort=asc`,
    }),
    check: (response, cell) => listHas('id', shared(cell, 'assigned').noteId)(response),
  },
  'confidential issues: note get (assigned)': {
    kind: 'issue',
    confidential: true,
    request: (cell) => ({
      method: 'GET',
      path: `${issues(cell)}/${shared(cell, 'assigned').ref}/notes/${shared(cell, 'assigned').noteId}`,
    }),
    check: (response, cell) => fieldIs('body', shared(cell, 'assigned').noteBody)(response),
  },
  'confidential issues: note create (assigned)': {
    kind: 'issue',
    confidential: true,
    request: (cell) => ({
      method: 'POST',
      path: `${issues(cell)}/${shared(cell, 'assigned').ref}/notes`,
      json: { body: titled(cell, 'confidential note') },
    }),
    check: (response, cell) => fieldIs('body', titled(cell, 'confidential note'))(response),
  },
  'confidential issues: update (assigned)': {
    kind: 'issue',
    confidential: true,
    request: (cell) => ({
      method: 'PUT',
      path: `${issues(cell)}/${shared(cell, 'assigned').ref}`,
      json: { description: titled(cell, 'described') },
    }),
    check: (response, cell) => fieldIs('description', titled(cell, 'described'))(response),
  },
  'confidential issues: delete': {
    kind: 'issue',
    confidential: true,
    request: (cell) => ({ method: 'DELETE', path: `${issues(cell)}/${target(cell, 'confidential')}` }),
    check: emptyBody,
  },
};

const resultKey = (visibility: Visibility, name: RowName, caller: Caller) =>
  `${visibility}|${name}|${caller}`;

/** One cell: its requests in the table's order, one after the other. */
async function runCell(place: Place, caller: Caller): Promise<void> {
  const cell: Cell = { place, caller, targets: place.cells[caller] };
  for (const name of Object.keys(MATRIX) as RowName[]) {
    const operation = OPERATIONS[name];
    if (!operation.confidential && (caller === 'author' || caller === 'assignee')) continue;
    if (world.setupErrors[operation.kind]) continue;
    let request: Request;
    try {
      request = operation.request(cell);
    } catch (error) {
      results.set(resultKey(place.visibility, name, caller), {
        response: { status: 0, headers: new Headers(), body: undefined, text: (error as Error).message },
      });
      continue;
    }
    const response = await call(request.method, request.path, { token: tokenOf(caller), json: request.json });
    results.set(resultKey(place.visibility, name, caller), { response, hint: request.hint });
    operation.after?.(response, cell);
  }
}

const BODIES: Partial<Record<Outcome, unknown>> = {
  401: { message: '401 Unauthorized' },
  403: { message: '403 Forbidden' },
};

/** What the cell answered, in the table's terms, with what is wrong with its body if anything. */
function verdict(visibility: Visibility, name: RowName, caller: Caller, expected: Outcome): string {
  const result = results.get(resultKey(visibility, name, caller));
  if (!result) return `${caller}: not run`;
  const { response, hint } = result;
  const operation = OPERATIONS[name];
  const cell: Cell = {
    place: world.places[visibility],
    caller,
    targets: world.places[visibility].cells[caller],
  };
  const listed = LISTED[name];
  const outcome: Outcome | number =
    listed && response.status === 200 ? listed(response, cell) : response.status;
  const got = `${caller}: ${outcome}`;
  const detail = (problem: string) => `${got} — ${problem}${hint ? ` (${hint})` : ''}`;
  if (outcome !== expected) return detail(response.text.slice(0, 200));
  if (outcome === 401 || outcome === 403) {
    return JSON.stringify(response.body) === JSON.stringify(BODIES[outcome])
      ? got
      : detail(`body ${response.text}`);
  }
  if (outcome === 404) {
    // A private place is hidden from non-members, and anything not public from anonymous callers.
    const hiddenPlace =
      (visibility === 'private' && caller === 'non-member') ||
      (visibility !== 'public' && caller === 'anonymous');
    const message = hiddenPlace
      ? operation.kind === 'epic'
        ? '404 Group Not Found'
        : '404 Project Not Found'
      : (operation.notFound ?? '404 Not found');
    return JSON.stringify(response.body) === JSON.stringify({ message })
      ? got
      : detail(`body ${response.text}`);
  }
  const problem = operation.check(response, cell);
  return problem ? detail(problem) : got;
}

beforeAll(async () => {
  await buildWorld();
  await Promise.all(
    VISIBILITIES.flatMap((visibility) =>
      CONFIDENTIAL_CALLERS.map((caller) => runCell(world.places[visibility], caller)),
    ),
  );
}, 600_000);

describe.each(VISIBILITIES)('%s project and group', (visibility) => {
  it.each(Object.keys(MATRIX) as RowName[])('%s', (name) => {
    const operation = OPERATIONS[name];
    expect(world.setupErrors[operation.kind], `setting up ${operation.kind}s`).toBeUndefined();
    const callers = operation.confidential ? CONFIDENTIAL_CALLERS : CALLERS;
    const expected = MATRIX[name][visibility];
    expect(expected).toHaveLength(callers.length);
    const got = callers.map((caller, i) => verdict(visibility, name, caller, expected[i] as Outcome));
    expect(got).toEqual(callers.map((caller, i) => `${caller}: ${expected[i]}`));
  });
});
