/**
 * Seeding for B4 and B5 through the store's own create functions, in this process: groups
 * (createGroup), group and personal projects (createProject in a namespace from namespace-lookup.ts),
 * memberships, tokens, issues (createIssue) and their notes (createNoteBy), project hooks
 * (createHook) and their delivery logs (appendHookLog, as the delivery worker logs an attempt),
 * labels (createLabel), milestones (createMilestone), award emoji (addAward) and discussions
 * (startThread, replyToDiscussion).
 * Seeding is not measured; it runs with the recorder off.
 */

import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Visibility } from '#domain/access.ts';
import { generateTokenSecret } from '#domain/access-tokens.ts';
import type { AwardEmoji } from '#domain/award-emoji.ts';
import { newThreadId } from '#domain/discussions.ts';
import { DEFAULT_CREATION_LEVELS, type Group } from '#domain/groups.ts';
import type { HookLog } from '#domain/hook-deliveries.ts';
import { type Hook, type HookInput, newHookFrom } from '#domain/hooks.ts';
import { newIssueFrom } from '#domain/issues.ts';
import { type Label, type LabelOwner, newLabelFrom } from '#domain/labels.ts';
import { type Milestone, type MilestoneOwner, newMilestoneFrom } from '#domain/milestones.ts';
import type { Note } from '#domain/notes.ts';
import { newProjectFrom, type Project, type ProjectNamespace } from '#domain/projects.ts';
import type { User } from '#domain/users.ts';
import { commitStoredRefs, uploadPacks } from '#repository/storage.ts';
import { addGroupMember } from '#store/access/members.ts';
import { createGroup } from '#store/groups/group-writes.ts';
import { appendHookLog } from '#store/hooks/hook-log.ts';
import { createHook } from '#store/hooks/hooks.ts';
import { addAward, awardPlaceOf } from '#store/issuables/award-emoji.ts';
import { replyToDiscussion, type StoredDiscussion, startThread } from '#store/issuables/discussions.ts';
import { createIssue, issueAsParent, type StoredIssue } from '#store/issuables/issues.ts';
import { createMilestone } from '#store/issuables/milestones.ts';
import { createNoteBy } from '#store/issuables/notes.ts';
import { createLabel } from '#store/labels/labels.ts';
import { groupNamespace, userNamespace } from '#store/projects/namespace-lookup.ts';
import { newRunnersToken } from '#store/projects/project-items.ts';
import { createProject } from '#store/projects/project-writes.ts';
import { indexGroupForSearch, indexProjectForSearch } from '#store/search/search-index.ts';
import { createAccessToken } from '#store/users/access-tokens.ts';
import { getUser } from '#store/users/users.ts';
import { git, makeRepository } from '../support/git-server.ts';

export const VISIBILITY_CYCLE: readonly Visibility[] = ['public', 'internal', 'private'];

export function groupFields(path: string, visibility: Visibility, parent?: Group) {
  return {
    name: path,
    path,
    description: '',
    visibility,
    lfs_enabled: true,
    request_access_enabled: false,
    parent_id: parent?.id ?? null,
    membership_lock: false,
    share_with_group_lock: false,
    shared_runners_minutes_limit: null,
    ...DEFAULT_CREATION_LEVELS,
    custom_attributes: {},
  };
}

/** A group as POST /groups makes it, its search postings written as the queue's worker would. */
export async function seedGroup(path: string, visibility: Visibility, creatorId: number, parent?: Group) {
  const group = await createGroup(groupFields(path, visibility, parent), parent, creatorId);
  await indexGroupForSearch(group.id);
  return group;
}

/** A project as POST /projects makes it, its search postings written as the queue's worker would. */
export async function seedProject(
  namespace: ProjectNamespace,
  path: string,
  visibility: Visibility,
  creatorId: number,
): Promise<Project> {
  const project = await createProject(
    newProjectFrom({ name: path, path, visibility }, namespace, creatorId, newRunnersToken()),
    namespace.owner_id,
  );
  await indexProjectForSearch(project.id);
  return project;
}

/** Projects in a group, `concurrency` at a time; visibility from `visibilityOf(i)`. */
export async function seedGroupProjects(
  group: Group,
  count: number,
  options: {
    prefix: string;
    creatorId: number;
    visibilityOf: (index: number) => Visibility;
    concurrency?: number;
  },
): Promise<Project[]> {
  const namespace = groupNamespace(group);
  const made: Project[] = [];
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < count; i = next++) {
      made.push(
        await seedProject(namespace, `${options.prefix}-${i}`, options.visibilityOf(i), options.creatorId),
      );
    }
  };
  await Promise.all(Array.from({ length: options.concurrency ?? 4 }, worker));
  return made.sort((a, b) => a.id - b.id);
}

/** The user's personal namespace (allocated on first use, as the first POST /projects would). */
export async function personalNamespace(user: User): Promise<ProjectNamespace> {
  const fresh = (await getUser(user.id)) ?? user;
  return userNamespace(fresh);
}

export async function seedMember(group: Group, userId: number, accessLevel: number): Promise<void> {
  await addGroupMember(group, { user_id: userId, access_level: accessLevel, expires_at: null }, userId);
}

/**
 * A personal access token with the `api` scope whose secret is `secret`, by default one as
 * POST /users/:id/personal_access_tokens makes it.
 */
export async function seedToken(user: User, secret = generateTokenSecret(user.id)): Promise<string> {
  await createAccessToken(user, { name: 'bench', scopes: ['api'], expires_at: null }, secret);
  return secret;
}

/** An issue as POST /projects/:id/issues makes it (createIssue: the project's next iid). */
export function seedIssue(project: Project, title: string, authorId: number): Promise<StoredIssue> {
  return createIssue(project, newIssueFrom({ title }, project.id, authorId));
}

/**
 * A note body of about `length` characters (GitLab comments are short paragraphs), numbered so
 * that every note differs.
 */
export function noteBody(index: number, length = 160): string {
  const head = `Note ${index}: `;
  const words = 'the build passes locally but the pipeline times out on the integration stage ';
  return (head + words.repeat(Math.ceil(length / words.length))).slice(0, length).trimEnd();
}

/**
 * `count` notes on an issue as POST /projects/:id/issues/:iid/notes makes them (createNoteBy: the
 * note and its count on the issue in one transaction), one after another, the authors taking turns.
 */
export async function seedIssueNotes(
  issue: StoredIssue,
  count: number,
  options: { authorIds: readonly number[]; first?: number },
): Promise<Note[]> {
  const made: Note[] = [];
  for (let i = 0; i < count; i++) {
    const authorId = options.authorIds[i % options.authorIds.length];
    if (authorId === undefined) throw new Error('no note author');
    const { note } = await createNoteBy(authorId, issueAsParent(issue), noteBody((options.first ?? 0) + i));
    made.push(note);
  }
  return made;
}

/**
 * A project hook as POST /projects/:id/hooks makes it (createHook), its url taken as checked. With
 * no events switched on it is never delivered to, so seeding can point it anywhere.
 */
export function seedHook(project: Project, url: string, flags: Omit<HookInput, 'url'> = {}): Promise<Hook> {
  return createHook(newHookFrom({ push_events: false, ...flags, url }, project.id, { ok: true }));
}

/**
 * `count` attempts in a hook's delivery log, one after another, as the delivery worker records
 * them (appendHookLog): a note event's request of about 2 KB (GitLab's Note Hook payload has
 * that order of size), its masked headers and a 200 answer.
 */
export async function seedHookLogs(
  hook: Hook,
  count: number,
  options: { first?: number } = {},
): Promise<HookLog[]> {
  const made: HookLog[] = [];
  for (let i = 0; i < count; i++) {
    const index = (options.first ?? 0) + i;
    made.push(
      await appendHookLog({
        hook_id: hook.id,
        delivery_id: `bench-delivery-${hook.id}-${index}`,
        url: hook.url,
        trigger: 'note_hooks',
        request_headers: {
          'Content-Type': 'application/json',
          'User-Agent': 'GitLab/17.11.0',
          'X-Gitlab-Event': 'Note Hook',
          'X-Gitlab-Token': '[REDACTED]',
          'Idempotency-Key': `bench-delivery-${hook.id}-${index}`,
        },
        request_data: {
          object_kind: 'note',
          event_type: 'note',
          user: { id: 1, name: 'Administrator', username: 'root', avatar_url: null },
          project_id: hook.project_id,
          object_attributes: {
            id: index,
            note: noteBody(index, 400),
            noteable_type: 'Issue',
            action: 'create',
            url: `http://localhost/bench/-/issues/1#note_${index}`,
          },
          issue: { iid: 1, title: 'bench issue', description: noteBody(index, 1200), state: 'opened' },
        },
        response_headers: { 'content-type': 'application/json' },
        response_body: '{}',
        execution_duration: 0.012,
        response_status: '200',
        internal_error_message: null,
      }),
    );
  }
  return made;
}

/** `count` labels of a project or group as POST …/labels makes them (createLabel), titled `<prefix>-<n>`. */
export async function seedLabels(owner: LabelOwner, count: number, prefix = 'label'): Promise<Label[]> {
  const made: Label[] = [];
  for (let i = 0; i < count; i++) {
    made.push(
      await createLabel(
        newLabelFrom({ name: `${prefix}-${i}`, color: '#428bca', description: `${prefix} ${i}` }, owner),
      ),
    );
  }
  return made;
}

/** `count` milestones of a project or group as POST …/milestones makes them (createMilestone: the owner's next iid). */
export async function seedMilestones(
  owner: MilestoneOwner,
  count: number,
  prefix = 'milestone',
): Promise<Milestone[]> {
  const made: Milestone[] = [];
  for (let i = 0; i < count; i++) {
    made.push(await createMilestone(newMilestoneFrom({ title: `${prefix}-${i}` }, owner)));
  }
  return made;
}

/**
 * Award emoji names GitLab accepts (gemoji's), for awards that must differ: one user awards each
 * name at most once on one awardable.
 */
export const AWARD_NAMES = [
  'thumbsup',
  'thumbsdown',
  'smile',
  'tada',
  'heart',
  'rocket',
  'eyes',
  'fire',
  'star',
  'clap',
] as const;

/**
 * Awards on an issue, or on one of its notes, as POST …/award_emoji makes them (addAward: the
 * award, its uniqueness item and the issue's vote counter in one transaction): each of `userIds`
 * awards each of `names`, one after another.
 */
export async function seedAwards(
  issue: StoredIssue,
  options: { userIds: readonly number[]; names: readonly string[]; noteId?: number },
): Promise<AwardEmoji[]> {
  const place = awardPlaceOf('Issue', { id: issue.id, iid: issue.iid }, issue.project_id, options.noteId);
  const awardable =
    options.noteId === undefined
      ? { awardable_id: issue.id, awardable_type: 'Issue' as const }
      : { awardable_id: options.noteId, awardable_type: 'Note' as const };
  const made: AwardEmoji[] = [];
  for (const userId of options.userIds) {
    for (const name of options.names)
      made.push(await addAward(place, { ...awardable, name, user_id: userId }));
  }
  return made;
}

/**
 * `count` discussions on an issue, oldest first, as the discussions and notes APIs make them:
 * every `threadEvery`-th a thread (startThread) with `replies` replies (replyToDiscussion), the
 * others notes of their own (createNoteBy); the authors take turns.
 */
export async function seedDiscussions(
  issue: StoredIssue,
  count: number,
  options: { authorIds: readonly number[]; threadEvery: number; replies: number; first?: number },
): Promise<{ threads: StoredDiscussion[]; notes: Note[] }> {
  const parent = issueAsParent(issue);
  const threads: StoredDiscussion[] = [];
  const notes: Note[] = [];
  let turn = 0;
  const author = () => {
    const id = options.authorIds[turn++ % options.authorIds.length];
    if (id === undefined) throw new Error('no discussion author');
    return id;
  };
  for (let i = 0; i < count; i++) {
    const body = noteBody((options.first ?? 0) + i);
    if (i % options.threadEvery !== 0) {
      notes.push((await createNoteBy(author(), parent, body)).note);
      continue;
    }
    const { discussion } = await startThread(author(), parent, body, newThreadId());
    notes.push(...discussion.notes);
    for (let r = 0; r < options.replies; r++) {
      const { note } = await replyToDiscussion(author(), parent, discussion, `${body} (reply ${r})`);
      discussion.notes.push(note);
      notes.push(note);
    }
    threads.push(discussion);
  }
  return { threads, notes };
}

/**
 * A repository for `project`, stored as an import stores one: a fixture of `commits` commits on
 * `main` (HEAD) built by the git binary, `branches` more branches at older commits and an annotated
 * tag, packed into one pack, uploaded, then committed through the pointer.
 */
export async function seedRepository(
  project: Project,
  options: { commits: number; branches: number },
): Promise<{ head: string; branches: string[] }> {
  const root = await mkdtemp(join(tmpdir(), 'bench-repository-'));
  try {
    const dir = join(root, 'fixture.git');
    const { head } = await makeRepository(dir, { commits: options.commits, tag: 'v1.0' });
    const branches: string[] = [];
    for (let i = 0; i < options.branches; i++) {
      const name = `topic-${String(i).padStart(3, '0')}`;
      await git(['--git-dir', dir, 'branch', name, `main~${i % options.commits}`]);
      branches.push(name);
    }
    const refs: Record<string, string> = {};
    const listed = await git(['--git-dir', dir, 'for-each-ref', '--format=%(objectname) %(refname)']);
    for (const line of listed.split('\n')) {
      const [oid, ref] = line.split(' ');
      if (oid && ref) refs[ref] = oid;
    }
    const packs = (await readdir(join(dir, 'objects', 'pack')))
      .filter((name) => name.endsWith('.pack'))
      .map((name) => name.replace(/\.pack$/, ''));
    await uploadPacks(project.id, dir, packs);
    await commitStoredRefs(project.id, { version: 1, head: 'refs/heads/main', refs, packs }, 0);
    return { head, branches };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
