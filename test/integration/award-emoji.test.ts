/**
 * Award emoji over HTTP on issues, merge requests and project snippets and on their notes: award,
 * list, read and remove with GitLab's entity; names checked against the emoji (aliases stored under
 * GitLab's name); one award per user, emoji and awardable, kept by the database under a race; votes
 * counted exactly on issues and merge requests; removal only by the owner or an admin; GitLab's
 * 401s and 404s; awards removed with their note, their issue and their project; and the emoji
 * webhook events of awards and revocations.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, baseUrl, createUser, idle, must, type TestUser, unique } from '../support/api.ts';
import { itemsLeft, partitionItems } from '../support/db.ts';
import { type Receiver, startReceiver } from '../support/receiver.ts';

interface UserBasic {
  id: number;
  name: string;
  username: string;
  state: string;
  avatar_url: string;
  web_url: string;
}

interface AwardBody {
  id: number;
  name: string;
  user: UserBasic;
  created_at: string;
  updated_at: string;
  awardable_id: number;
  awardable_type: string;
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const NOT_FOUND = { message: '404 Not found' };
const AWARDABLE_NOT_FOUND = { message: '404 Award Emoji Not Found' };
const TAKEN = { message: '404 Award Emoji {:name=>["has already been taken"]} Not Found' };
const NOT_AN_EMOJI = { message: '404 Award Emoji {:name=>["is not included in the list"]} Not Found' };
const UNAUTHORIZED = { message: '401 Unauthorized' };

/** What an award shows of a user: UserBasic, as the user's own read shows those fields. */
async function userBasicOf(user: { id: number }): Promise<UserBasic> {
  const shown = await must(api<UserBasic>('GET', `/users/${user.id}`), 200, 'user');
  return {
    id: shown.id,
    name: shown.name,
    username: shown.username,
    state: shown.state,
    avatar_url: shown.avatar_url,
    web_url: shown.web_url,
  };
}

interface Awardable {
  label: string;
  /** The awardable's route, without /award_emoji. */
  path: string;
  awardable_id: number;
  awardable_type: string;
  /** The partition its awards are kept in. */
  pk: string;
}

let owner: TestUser;
let other: TestUser;
let ownerShown: UserBasic;
let projectId: number;
let issue: { id: number; iid: number };
let awardables: Awardable[];

async function note(path: string, body = 'a note'): Promise<{ id: number }> {
  return must(
    api<{ id: number }>('POST', `${path}/notes`, { token: owner.token, json: { body } }),
    201,
    'note',
  );
}

beforeAll(async () => {
  [owner, other] = await Promise.all([createUser(), createUser()]);
  ownerShown = await userBasicOf(owner);
  const project = await must(
    api<{ id: number }>('POST', '/projects', {
      token: owner.token,
      json: { name: unique('Awards'), visibility: 'public' },
    }),
    201,
    'project',
  );
  projectId = project.id;
  issue = await must(
    api<{ id: number; iid: number }>('POST', `/projects/${projectId}/issues`, {
      token: owner.token,
      json: { title: 'Awarded' },
    }),
    201,
    'issue',
  );
  const mr = await must(
    api<{ id: number; iid: number }>('POST', `/projects/${projectId}/merge_requests`, {
      token: owner.token,
      json: { source_branch: unique('feature'), target_branch: 'master', title: 'Awarded' },
    }),
    201,
    'merge request',
  );
  const snippet = await must(
    api<{ id: number }>('POST', `/projects/${projectId}/snippets`, {
      token: owner.token,
      json: { title: 'Awarded', file_name: 'a.rb', content: 'a', visibility: 'public' },
    }),
    201,
    'snippet',
  );
  const parents = [
    {
      label: 'issue',
      path: `/projects/${projectId}/issues/${issue.iid}`,
      id: issue.id,
      type: 'Issue',
      pk: `ISSUE#${projectId}#${issue.iid}`,
    },
    {
      label: 'merge request',
      path: `/projects/${projectId}/merge_requests/${mr.iid}`,
      id: mr.id,
      type: 'MergeRequest',
      pk: `MR#${projectId}#${mr.iid}`,
    },
    {
      label: 'snippet',
      path: `/projects/${projectId}/snippets/${snippet.id}`,
      id: snippet.id,
      type: 'Snippet',
      pk: `SNIPPET#${snippet.id}`,
    },
  ];
  awardables = [];
  for (const parent of parents) {
    const onNote = await note(parent.path);
    awardables.push(
      {
        label: parent.label,
        path: parent.path,
        awardable_id: parent.id,
        awardable_type: parent.type,
        pk: parent.pk,
      },
      {
        label: `${parent.label} note`,
        path: `${parent.path}/notes/${onNote.id}`,
        awardable_id: onNote.id,
        awardable_type: 'Note',
        pk: parent.pk,
      },
    );
  }
});

describe.each(['issue', 'issue note', 'merge request', 'merge request note', 'snippet', 'snippet note'])(
  'award emoji on a %s',
  (label) => {
    it('awards, lists, reads and removes with the entity, the owner alone removing', async () => {
      const awardable = awardables.find((candidate) => candidate.label === label) as Awardable;
      const since = Date.now();
      const created = await api<AwardBody>('POST', `${awardable.path}/award_emoji`, {
        token: owner.token,
        json: { name: 'tada' },
      });
      expect(created.status, `${awardable.label}: ${created.text}`).toBe(201);
      const award = created.body;
      expect(award).toEqual({
        id: award.id,
        name: 'tada',
        user: ownerShown,
        created_at: award.created_at,
        updated_at: award.created_at,
        awardable_id: awardable.awardable_id,
        awardable_type: awardable.awardable_type,
      });
      expect(award.created_at).toMatch(ISO);
      expect(Date.parse(award.created_at)).toBeGreaterThanOrEqual(since - 5);

      const second = await must(
        api<AwardBody>('POST', `${awardable.path}/award_emoji`, {
          token: other.token,
          json: { name: 'tada' },
        }),
        201,
        'second award',
      );
      const listed = await api<AwardBody[]>('GET', `${awardable.path}/award_emoji`, { token: other.token });
      expect(listed.status).toBe(200);
      expect(listed.body).toEqual([award, second]);
      expect(listed.headers.get('x-total')).toBe('2');

      const paged = await api<AwardBody[]>('GET', `${awardable.path}/award_emoji?per_page=1&page=2`, {
        token: other.token,
      });
      expect(paged.status).toBe(200);
      expect(paged.body).toEqual([second]);

      const read = await api('GET', `${awardable.path}/award_emoji/${award.id}`, { token: other.token });
      expect(read.status).toBe(200);
      expect(read.body).toEqual(award);

      const twice = await api('POST', `${awardable.path}/award_emoji`, {
        token: owner.token,
        json: { name: 'tada' },
      });
      expect(twice.status).toBe(404);
      expect(twice.body).toEqual(TAKEN);

      const byOther = await api('DELETE', `${awardable.path}/award_emoji/${award.id}`, {
        token: other.token,
      });
      expect(byOther.status).toBe(401);
      expect(byOther.body).toEqual(UNAUTHORIZED);

      const removed = await api('DELETE', `${awardable.path}/award_emoji/${award.id}`, {
        token: owner.token,
      });
      expect(removed.status).toBe(204);
      expect(removed.text).toBe('');
      // An admin removes anyone's.
      const byAdmin = await api('DELETE', `${awardable.path}/award_emoji/${second.id}`);
      expect(byAdmin.status).toBe(204);

      const gone = await api('GET', `${awardable.path}/award_emoji/${award.id}`, { token: owner.token });
      expect(gone.status).toBe(404);
      expect(gone.body).toEqual(NOT_FOUND);
      const again = await api('DELETE', `${awardable.path}/award_emoji/${award.id}`, { token: owner.token });
      expect(again.status).toBe(404);
      expect(again.body).toEqual(NOT_FOUND);
      const empty = await api('GET', `${awardable.path}/award_emoji`, { token: owner.token });
      expect(empty.status).toBe(200);
      expect(empty.body).toEqual([]);
      expect(empty.headers.get('x-total')).toBe('0');
      // The same emoji may be awarded again once removed.
      await must(
        api('POST', `${awardable.path}/award_emoji`, { token: owner.token, json: { name: 'tada' } }),
        201,
        'award again',
      );
    });
  },
);

describe('names', () => {
  it('stores an alias under GitLab name, and refuses what is no emoji as the model does', async () => {
    const path = `/projects/${projectId}/issues/${issue.iid}/award_emoji`;
    const alias = await api<AwardBody>('POST', path, { token: other.token, json: { name: '+1' } });
    expect(alias.status, alias.text).toBe(201);
    expect(alias.body.name).toBe('thumbsup');
    const thumbsup = await api('POST', path, { token: other.token, json: { name: 'thumbsup' } });
    expect(thumbsup.status).toBe(404);
    expect(thumbsup.body).toEqual(TAKEN);

    const unknown = await api('POST', path, { token: other.token, json: { name: 'no_such_emoji' } });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(NOT_AN_EMOJI);
    const blank = await api('POST', path, { token: other.token, json: { name: '' } });
    expect(blank.status).toBe(404);
    expect(blank.body).toEqual({
      message: '404 Award Emoji {:name=>["can\'t be blank", "is not included in the list"]} Not Found',
    });
    const missing = await api('POST', path, { token: other.token, json: {} });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: 'name is missing' });
    const tooLong = await api('POST', path, { token: other.token, json: { name: 'x'.repeat(300) } });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toEqual({ message: { name: ['is too long (maximum is 255 characters)'] } });
    await must(api('DELETE', `${path}/${alias.body.id}`, { token: other.token }), 204, 'remove +1');
  });
});

describe('who may', () => {
  it('answers 401 to anonymous callers and 404s for what is not there or not readable', async () => {
    const path = `/projects/${projectId}/issues/${issue.iid}/award_emoji`;
    for (const [method, route] of [
      ['GET', path],
      ['POST', path],
    ] as const) {
      const anonymous = await api(method, route, {
        token: null,
        ...(method === 'POST' ? { json: { name: 'tada' } } : {}),
      });
      expect(anonymous.status).toBe(401);
      expect(anonymous.body).toEqual(UNAUTHORIZED);
    }
    const noIssue = await api('GET', `/projects/${projectId}/issues/99999/award_emoji`, {
      token: other.token,
    });
    expect(noIssue.status).toBe(404);
    expect(noIssue.body).toEqual(NOT_FOUND);
    const noNote = await api(
      'POST',
      `/projects/${projectId}/issues/${issue.iid}/notes/99999999/award_emoji`,
      {
        token: other.token,
        json: { name: 'tada' },
      },
    );
    expect(noNote.status).toBe(404);
    expect(noNote.body).toEqual(NOT_FOUND);

    const secret = await must(
      api<{ iid: number }>('POST', `/projects/${projectId}/issues`, {
        token: owner.token,
        json: { title: 'Secret', confidential: true },
      }),
      201,
      'confidential issue',
    );
    const secretPath = `/projects/${projectId}/issues/${secret.iid}/award_emoji`;
    for (const method of ['GET', 'POST'] as const) {
      const hidden = await api(method, secretPath, {
        token: other.token,
        ...(method === 'POST' ? { json: { name: 'tada' } } : {}),
      });
      expect(hidden.status).toBe(404);
      expect(hidden.body).toEqual(AWARDABLE_NOT_FOUND);
    }
    await must(api('POST', secretPath, { token: owner.token, json: { name: 'tada' } }), 201, 'owner awards');
  });
});

describe('uniqueness and votes under concurrency', () => {
  it('lets one of ten identical awards in and counts it once', async () => {
    const fresh = await must(
      api<{ iid: number }>('POST', `/projects/${projectId}/issues`, {
        token: owner.token,
        json: { title: 'Race' },
      }),
      201,
      'issue',
    );
    const path = `/projects/${projectId}/issues/${fresh.iid}`;
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        api('POST', `${path}/award_emoji`, { token: other.token, json: { name: 'thumbsup' } }),
      ),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, ...Array(9).fill(404)]);
    for (const answer of answers.filter((one) => one.status === 404)) expect(answer.body).toEqual(TAKEN);
    const read = await must(api<{ upvotes: number; downvotes: number }>('GET', path), 200, 'issue');
    expect(read.upvotes).toBe(1);
    expect(read.downvotes).toBe(0);
    const listed = await api<AwardBody[]>('GET', `${path}/award_emoji`);
    expect(listed.body).toHaveLength(1);
  });

  it('counts twenty users’ thumbsup exactly, and votes go with their removal', async () => {
    const fresh = await must(
      api<{ iid: number }>('POST', `/projects/${projectId}/issues`, {
        token: owner.token,
        json: { title: 'Votes' },
      }),
      201,
      'issue',
    );
    const path = `/projects/${projectId}/issues/${fresh.iid}`;
    const voters = await Promise.all(Array.from({ length: 20 }, () => createUser()));
    const awards = await Promise.all(
      voters.map((voter) =>
        must(
          api<AwardBody>('POST', `${path}/award_emoji`, { token: voter.token, json: { name: 'thumbsup' } }),
          201,
          'vote',
        ),
      ),
    );
    const down = await must(
      api<AwardBody>('POST', `${path}/award_emoji`, { token: owner.token, json: { name: 'thumbsdown' } }),
      201,
      'downvote',
    );
    const read = await must(api<{ upvotes: number; downvotes: number }>('GET', path), 200, 'issue');
    expect([read.upvotes, read.downvotes]).toEqual([20, 1]);
    await idle();
    const listed = await must(
      api<{ iid: number; upvotes: number; downvotes: number }[]>(
        'GET',
        `/projects/${projectId}/issues?iids[]=${fresh.iid}`,
      ),
      200,
      'issues',
    );
    expect(listed.map((one) => [one.iid, one.upvotes, one.downvotes])).toEqual([[fresh.iid, 20, 1]]);

    await Promise.all(
      awards
        .slice(0, 5)
        .map((award, at) =>
          must(
            api('DELETE', `${path}/award_emoji/${award.id}`, { token: (voters[at] as TestUser).token }),
            204,
            'unvote',
          ),
        ),
    );
    await must(api('DELETE', `${path}/award_emoji/${down.id}`, { token: owner.token }), 204, 'undownvote');
    const after = await must(api<{ upvotes: number; downvotes: number }>('GET', path), 200, 'issue');
    expect([after.upvotes, after.downvotes]).toEqual([15, 0]);
  });

  it('counts votes on merge requests, and none for a note award', async () => {
    const mr = awardables[2] as Awardable;
    const mrNote = awardables[3] as Awardable;
    await must(
      api('POST', `${mr.path}/award_emoji`, { token: other.token, json: { name: 'thumbsdown' } }),
      201,
      'down',
    );
    await must(
      api('POST', `${mrNote.path}/award_emoji`, { token: other.token, json: { name: 'thumbsup' } }),
      201,
      'up',
    );
    const read = await must(
      api<{ upvotes: number; downvotes: number }>('GET', mr.path),
      200,
      'merge request',
    );
    expect([read.upvotes, read.downvotes]).toEqual([0, 1]);
  });
});

/** The award items of a partition, by sort key. */
const awardKeys = async (pk: string) =>
  (await partitionItems(pk)).map((item) => String(item.sk)).filter((sk) => sk.startsWith('AWARD#'));

describe('removal', () => {
  it('removes a note’s awards with the note', async () => {
    const path = `/projects/${projectId}/issues/${issue.iid}`;
    const pk = `ISSUE#${projectId}#${issue.iid}`;
    const onNote = await note(path, 'to be removed');
    const notePath = `${path}/notes/${onNote.id}`;
    await must(
      api('POST', `${notePath}/award_emoji`, { token: other.token, json: { name: 'eyes' } }),
      201,
      'award',
    );
    const noteSk = `AWARD#NOTE#${String(onNote.id).padStart(12, '0')}#`;
    expect((await awardKeys(pk)).filter((sk) => sk.startsWith(noteSk))).toHaveLength(2);
    await must(api('DELETE', notePath, { token: owner.token }), 204, 'note removed');
    expect((await awardKeys(pk)).filter((sk) => sk.startsWith(noteSk))).toEqual([]);
    const after = await api('GET', `${notePath}/award_emoji`, { token: owner.token });
    expect(after.status).toBe(404);
    expect(after.body).toEqual(NOT_FOUND);
  });

  it('removes awards with their issue and with their project', async () => {
    const doomed = await must(
      api<{ iid: number }>('POST', `/projects/${projectId}/issues`, {
        token: owner.token,
        json: { title: 'Doomed' },
      }),
      201,
      'issue',
    );
    const path = `/projects/${projectId}/issues/${doomed.iid}`;
    const pk = `ISSUE#${projectId}#${doomed.iid}`;
    const onNote = await note(path);
    await must(
      api('POST', `${path}/award_emoji`, { token: other.token, json: { name: 'thumbsup' } }),
      201,
      'award',
    );
    await must(
      api('POST', `${path}/notes/${onNote.id}/award_emoji`, { token: other.token, json: { name: 'heart' } }),
      201,
      'note award',
    );
    expect(await awardKeys(pk)).toHaveLength(4);
    await must(api('DELETE', path, { token: owner.token }), 204, 'issue removed');
    await idle();
    expect(await awardKeys(pk)).toEqual([]);

    const mine = await must(
      api<{ id: number }>('POST', '/projects', { token: owner.token, json: { name: unique('Doomed') } }),
      201,
      'project',
    );
    const kept = await must(
      api<{ iid: number }>('POST', `/projects/${mine.id}/issues`, {
        token: owner.token,
        json: { title: 'Kept' },
      }),
      201,
      'issue',
    );
    const snippet = await must(
      api<{ id: number }>('POST', `/projects/${mine.id}/snippets`, {
        token: owner.token,
        json: { title: 's', file_name: 's.rb', content: 's', visibility: 'private' },
      }),
      201,
      'snippet',
    );
    await must(
      api('POST', `/projects/${mine.id}/issues/${kept.iid}/award_emoji`, {
        token: owner.token,
        json: { name: 'tada' },
      }),
      201,
      'issue award',
    );
    await must(
      api('POST', `/projects/${mine.id}/snippets/${snippet.id}/award_emoji`, {
        token: owner.token,
        json: { name: 'tada' },
      }),
      201,
      'snippet award',
    );
    await must(api('DELETE', `/projects/${mine.id}`, { token: owner.token }), 202, 'project removed');
    await idle();
    expect(await itemsLeft(`ISSUE#${mine.id}#${kept.iid}`)).toEqual([]);
    expect(await itemsLeft(`SNIPPET#${snippet.id}`)).toEqual([]);
  });
});

describe('webhooks', () => {
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(() => receiver.close());

  interface EmojiPayload {
    object_kind: string;
    event_type: string;
    user: { id: number; username: string };
    project_id: number;
    project: { id: number };
    object_attributes: Record<string, unknown>;
    note?: { id: number; note: string };
    issue?: { iid: number };
    project_snippet?: { id: number };
  }

  it('sends an emoji event for each award and revocation, none for awards removed with their note', async () => {
    const tag = unique('emoji');
    const hookProject = await must(
      api<{ id: number; path_with_namespace: string }>('POST', '/projects', {
        json: { name: unique('Hooked') },
      }),
      201,
      'project',
    );
    for (const [path, flags] of [
      [`/${tag}/emoji`, { emoji_events: true }],
      [`/${tag}/notes`, { note_events: true }],
    ] as const) {
      await must(
        api('POST', `/projects/${hookProject.id}/hooks`, {
          json: { url: `${receiver.origin}${path}`, push_events: false, ...flags },
        }),
        201,
        'hook',
      );
    }
    const root = await must(api<{ id: number; username: string }>('GET', '/user'), 200, 'root');
    const base = `/projects/${hookProject.id}`;
    const hooked = await must(
      api<{ id: number; iid: number }>('POST', `${base}/issues`, { json: { title: 'Hooked' } }),
      201,
      'issue',
    );
    const snippet = await must(
      api<{ id: number }>('POST', `${base}/snippets`, {
        json: { title: 'S', file_name: 's.txt', content: 'x', visibility: 'private' },
      }),
      201,
      'snippet',
    );
    const issuePath = `${base}/issues/${hooked.iid}`;
    const onNote = await must(
      api<{ id: number }>('POST', `${issuePath}/notes`, { json: { body: 'Nice' } }),
      201,
      'note',
    );
    const tada = await must(
      api<AwardBody>('POST', `${issuePath}/award_emoji`, { json: { name: 'tada' } }),
      201,
      'award',
    );
    const eyes = await must(
      api<AwardBody>('POST', `${issuePath}/notes/${onNote.id}/award_emoji`, { json: { name: 'eyes' } }),
      201,
      'note award',
    );
    const heart = await must(
      api<AwardBody>('POST', `${base}/snippets/${snippet.id}/award_emoji`, { json: { name: 'heart' } }),
      201,
      'snippet award',
    );
    await must(api('DELETE', `${issuePath}/award_emoji/${tada.id}`), 204, 'revoke');
    await idle();
    // The note goes with its award: no revocation.
    await must(api('DELETE', `${issuePath}/notes/${onNote.id}`), 204, 'note removed');
    await idle();

    const sent = receiver.at(`/${tag}/emoji`);
    expect(sent.map((request) => request.headers['x-gitlab-event'])).toEqual(Array(4).fill('Emoji Hook'));
    const payloads = sent.map((request) => request.json as EmojiPayload);
    const byEvent = (type: string, id: number) =>
      payloads.find((payload) => payload.event_type === type && payload.object_attributes.id === id);
    expect(payloads.map((payload) => `${payload.event_type} ${payload.object_attributes.id}`).sort()).toEqual(
      [`award ${tada.id}`, `award ${eyes.id}`, `award ${heart.id}`, `revoke ${tada.id}`].sort(),
    );
    const projectUrl = `${baseUrl()}/${hookProject.path_with_namespace}`;
    const award = byEvent('award', tada.id) as EmojiPayload;
    expect(award).toMatchObject({
      object_kind: 'emoji',
      event_type: 'award',
      user: { id: root.id, username: root.username },
      project_id: hookProject.id,
      project: { id: hookProject.id },
      object_attributes: {
        user_id: root.id,
        id: tada.id,
        name: 'tada',
        awardable_type: 'Issue',
        awardable_id: hooked.id,
        awarded_on_url: `${projectUrl}/-/issues/${hooked.iid}`,
      },
      issue: { iid: hooked.iid },
    });
    expect(award.object_attributes.created_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC$/);
    expect(award.note).toBeUndefined();
    expect(byEvent('revoke', tada.id)).toMatchObject({
      event_type: 'revoke',
      object_attributes: { id: tada.id, name: 'tada', awardable_type: 'Issue' },
    });
    expect(byEvent('award', eyes.id)).toMatchObject({
      object_attributes: {
        awardable_type: 'Note',
        awardable_id: onNote.id,
        awarded_on_url: `${projectUrl}/-/issues/${hooked.iid}#note_${onNote.id}`,
      },
      note: { id: onNote.id, note: 'Nice' },
      issue: { iid: hooked.iid },
    });
    expect(byEvent('award', heart.id)).toMatchObject({
      object_attributes: { awardable_type: 'Snippet', awardable_id: snippet.id },
      project_snippet: { id: snippet.id },
    });
    // The note hook had the note, and no award.
    expect(receiver.at(`/${tag}/notes`).map((request) => (request.json as EmojiPayload).object_kind)).toEqual(
      ['note'],
    );
  });
});
