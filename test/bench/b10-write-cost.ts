/**
 * B10: write cost per request. Every write route of the route table (functions/routes.ts) that
 * the bench can reach is called through the local gateway, alone, as root (or as the user the
 * route needs), on data made through the API beforehand: a public group with a project holding an
 * issue, a merge request and a snippet, an epic, a project with hooks and a delivery log, a project
 * whose repository got its first commit through the API (branches, merge requests between them),
 * users to change. Each call runs `repetitions` times, each on things of its own where the write
 * consumes them (a user to delete, a project to archive, an award, a branch to merge).
 *
 * Every write command the store sends while the request runs is metered (./write-capacity.ts): in
 * write capacity units on DynamoDB's documented rules, the table and each index apart, and as
 * DynamoDB Local reports them with ReturnConsumedCapacity INDEXES (information). The runtime is
 * idle before each call, and the queue messages the call sends wait until it answered, so workers
 * and the table stream's consumers do not write during it. Id-block reservations (one per
 * ID_BLOCK_SIZE ids a container takes) are shown apart and left out of the figure.
 *
 * Budget (docs/performance.md): a star ≤ 8 WRU, a note ≤ 12, an issue ≤ 16; every write route
 * measured, or named with the reason it cannot be reached here; every call answered 2xx.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { config } from '#config/env.ts';
import { documentClient } from '#store/table/client.ts';
import { routes } from '../../functions/routes.ts';
import { type BudgetResult, table } from './common.ts';
import { call } from './http-client.ts';
import type { BenchRuntime } from './runtime.ts';
import { installWriteMeter, type WriteCost } from './write-capacity.ts';

export interface B10Options {
  repetitions: number;
  idBlockSize: number;
}

/** WRU budgets by route, on DynamoDB's documented rules. */
export const WRITE_BUDGETS: Readonly<Record<string, number>> = {
  'POST /projects/:id/star': 8,
  'POST /projects/:id/issues/:issue_iid/notes': 12,
  'POST /projects/:id/merge_requests/:merge_request_iid/notes': 12,
  'POST /projects/:id/snippets/:snippet_id/notes': 12,
  'POST /groups/:id/epics/:epic_id/notes': 12,
  'POST /projects/:id/issues': 16,
};

/** Write routes the bench runtime cannot reach, and why. */
const UNREACHABLE: Readonly<Record<string, string>> = Object.fromEntries(
  [
    'POST /groups/:id/ldap_sync',
    'POST /groups/:id/ldap_group_links',
    'DELETE /groups/:id/ldap_group_links',
    'DELETE /groups/:id/ldap_group_links/:cn',
    'DELETE /groups/:id/ldap_group_links/:provider/:cn',
  ].map((route) => [
    route,
    'needs an LDAP provider (LDAP_PROVIDERS) and its directory; the bench runtime has none',
  ]),
);

/** `POST /projects/:id/issues` for a route of the table. */
const routeKey = (method: string, path: string) =>
  `${method} ${path.replace(/^\/api\/v4/, '').replace(/\{(\w+)\}/g, ':$1')}`;

interface Request {
  method: string;
  path: string;
  token?: string;
  json?: unknown;
  form?: () => FormData;
}

interface Scenario {
  route: string;
  /** What distinguishes it from other calls of the route (`close`). */
  variant?: string;
  /** Makes what the call needs (unmetered) and gives the call. */
  prepare(rep: number): Promise<Request>;
}

interface Rep {
  status: number;
  writes: number;
  failedWrites: number;
  table: number;
  indexes: Record<string, number>;
  indexTotal: number;
  total: number;
  reported: number;
  idBlockUnits: number;
  commands: string[];
}

interface ScenarioResult {
  route: string;
  variant?: string;
  statuses: number[];
  /** The most expensive repetition. */
  worst: Rep;
  totals: number[];
  largestIndex: { name: string; units: number } | undefined;
  budget?: number;
  holds: boolean;
  why: string[];
}

const is2xx = (status: number) => status >= 200 && status < 300;
const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

function repOf(status: number, writes: WriteCost[]): Rep {
  const counted = writes.filter((write) => !write.idBlock && !write.streamTouch);
  const indexes: Record<string, number> = {};
  for (const write of counted)
    for (const [name, units] of Object.entries(write.indexes)) indexes[name] = (indexes[name] ?? 0) + units;
  const tableUnits = sum(counted.map((write) => write.table));
  const indexTotal = sum(Object.values(indexes));
  return {
    status,
    writes: counted.length,
    failedWrites: counted.filter((write) => write.failed).length,
    table: tableUnits,
    indexes,
    indexTotal,
    total: tableUnits + indexTotal,
    reported: sum(counted.map((write) => write.reported.total)),
    idBlockUnits: sum(writes.filter((write) => write.idBlock).map((write) => write.table)),
    commands: counted.map(
      (write) =>
        `${write.command.replace(/Command$/, '').replace('TransactWriteItems', 'TransactWrite')}${
          write.items > 1 ? `(${write.items})` : ''
        }${write.failed ? `!${write.failed}` : ''}`,
    ),
  };
}

/** A receiver for the hooks' test and resend calls: 200 to anything. */
async function startReceiver() {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export async function runB10(bench: BenchRuntime, options: B10Options): Promise<BudgetResult> {
  const started = performance.now();
  const { apiUrl, rootToken: root } = bench.runtime;
  const stamp = Date.now().toString(36);
  const reps = options.repetitions;
  const receiver = await startReceiver();
  let meter: Awaited<ReturnType<typeof installWriteMeter>> | undefined;
  try {
    /** A call that must answer 2xx (set-up, unmetered); its body. */
    const ok = async <T = { id: number }>(method: string, path: string, json?: unknown, token = root) => {
      const answer = await call<T>(apiUrl, method, path, { token, json });
      if (!is2xx(answer.status))
        throw new Error(`set-up ${method} ${path}: ${answer.status} ${answer.text.slice(0, 300)}`);
      return answer.body;
    };
    let serial = 0;
    const name = (what: string) => `b10-${stamp}-${what}-${serial++}`;

    // Users to change, one per call that changes one; tokens made for those who call.
    const users = await bench.seedUsers(30 * reps + 10);
    let taken = 0;
    const take = () => {
      const user = users[taken++];
      if (!user) throw new Error('B10 user pool exhausted');
      return user;
    };
    const tokenOf = async (userId: number) =>
      (await ok<{ token: string; id: number }>('POST', `/users/${userId}/personal_access_tokens`, {
        name: 'b10',
        scopes: ['api'],
      })) as { token: string; id: number };

    const newGroup = (extra: Record<string, unknown> = {}) => {
      const path = name('group');
      return ok('POST', '/groups', { name: path, path, visibility: 'public', ...extra });
    };
    const group = await newGroup();
    const shareGroup = await newGroup();
    const newProject = (extra: Record<string, unknown> = {}) =>
      ok('POST', '/projects', {
        name: name('project'),
        namespace_id: group.id,
        visibility: 'public',
        ...extra,
      });
    const project = await newProject();
    const p = `/projects/${project.id}`;
    const newIssue = () => ok<{ iid: number }>('POST', `${p}/issues`, { title: name('issue') });
    const newMr = () =>
      ok<{ iid: number }>('POST', `${p}/merge_requests`, {
        source_branch: name('feature'),
        target_branch: 'master',
        title: name('mr'),
      });
    const newSnippet = () =>
      ok('POST', `${p}/snippets`, {
        title: name('snippet'),
        file_name: 'bench.txt',
        content: 'the build passes locally but the pipeline times out on the integration stage',
        visibility: 'public',
      });
    const personalSnippet = () => ({
      title: name('snippet'),
      file_name: 'bench.txt',
      content: 'the build passes locally but the pipeline times out on the integration stage',
      visibility: 'public',
    });
    const newEpic = () =>
      ok<{ id: number; iid: number }>('POST', `/groups/${group.id}/epics`, { title: name('epic') });
    const noteBody = (what: string) =>
      `A bench note on the ${what}: the build passes locally but the pipeline times out.`;

    // The noteables the note calls write to, each with a few notes already.
    const issue = await newIssue();
    const mr = await newMr();
    const snippet = await newSnippet();
    const epic = await newEpic();
    const noteables = {
      issue: `${p}/issues/${issue.iid}/notes`,
      mr: `${p}/merge_requests/${mr.iid}/notes`,
      snippet: `${p}/snippets/${snippet.id}/notes`,
      epic: `/groups/${group.id}/epics/${epic.id}/notes`,
    };
    for (const [what, path] of Object.entries(noteables))
      for (let i = 0; i < 3; i++) await ok('POST', path, { body: noteBody(what) });
    const newNote = (path: string) => ok('POST', path, { body: noteBody('thread') });

    // Hooks: one that delivers issue events to the receiver, so its log has an attempt to resend.
    const hooksProject = await newProject();
    const h = `/projects/${hooksProject.id}/hooks`;
    const hook = await ok('POST', h, {
      url: `${receiver.origin}/hook`,
      issues_events: true,
      push_events: true,
    });
    await ok('POST', `/projects/${hooksProject.id}/issues`, { title: 'delivered' });
    await bench.runtime.idle();
    const events = await ok<{ id: number }[]>('GET', `${h}/${hook.id}/events`);
    const logged = events[0];
    if (!logged) throw new Error('the hook delivered nothing to resend');
    const forkSource = await newProject();
    const starred = await newProject();

    // A project with a stored repository, its first commit made through the API on `main`.
    const repository = await newProject();
    const r = `/projects/${repository.id}`;
    await ok('POST', `${r}/repository/commits`, {
      branch: 'main',
      commit_message: 'Initial commit',
      actions: [{ action: 'create', file_path: 'README.md', content: '# A bench repository\n' }],
    });
    const repoFile = (path: string) => `${r}/repository/files/${encodeURIComponent(path)}`;
    const fileContent = 'the build passes locally but the pipeline times out\n';
    /** A file committed to `branch` (unmetered); its path. */
    const commitFile = async (branch: string) => {
      const path = `${name('file')}.txt`;
      await ok('POST', repoFile(path), { branch, content: fileContent, commit_message: `Add ${path}` });
      return path;
    };
    const newBranch = async () => {
      const branch = name('branch');
      await ok('POST', `${r}/repository/branches`, { branch, ref: 'main' });
      return branch;
    };
    /** A merge request from a branch one commit ahead of `main` (and `main` a commit ahead of it when `behind`). */
    const branchMr = async (behind: boolean) => {
      const branch = await newBranch();
      await commitFile(branch);
      if (behind) await commitFile('main');
      return ok<{ iid: number }>('POST', `${r}/merge_requests`, {
        source_branch: branch,
        target_branch: 'main',
        title: name('mr'),
      });
    };
    const labelColor = '#428BCA';
    const newLabel = (owner: string) =>
      ok<{ id: number; name: string }>('POST', `${owner}/labels`, { name: name('label'), color: labelColor });
    const newMilestone = (owner: string) => ok('POST', `${owner}/milestones`, { title: name('milestone') });
    const groupPath = `/groups/${group.id}`;

    const req = (method: string, path: string, json?: unknown, token?: string): Request => ({
      method,
      path,
      json,
      token,
    });

    const scenarios: Scenario[] = [
      // Users and tokens.
      {
        route: 'POST /users',
        prepare: async () => {
          const username = name('user');
          return req('POST', '/users', {
            username,
            email: `${username}@example.com`,
            name: username,
            password: 'benchpass123',
          });
        },
      },
      {
        route: 'PUT /users/:id',
        prepare: async () => req('PUT', `/users/${take().id}`, { bio: name('bio') }),
      },
      { route: 'DELETE /users/:id', prepare: async () => req('DELETE', `/users/${take().id}`) },
      { route: 'POST /users/:id/block', prepare: async () => req('POST', `/users/${take().id}/block`) },
      {
        route: 'POST /users/:id/unblock',
        prepare: async () => {
          const { id } = take();
          await ok('POST', `/users/${id}/block`);
          return req('POST', `/users/${id}/unblock`);
        },
      },
      { route: 'POST /users/:id/ban', prepare: async () => req('POST', `/users/${take().id}/ban`) },
      {
        route: 'POST /users/:id/unban',
        prepare: async () => {
          const { id } = take();
          await ok('POST', `/users/${id}/ban`);
          return req('POST', `/users/${id}/unban`);
        },
      },
      {
        route: 'POST /users/:id/deactivate',
        prepare: async () => req('POST', `/users/${take().id}/deactivate`),
      },
      {
        route: 'POST /users/:id/activate',
        prepare: async () => {
          const { id } = take();
          await ok('POST', `/users/${id}/deactivate`);
          return req('POST', `/users/${id}/activate`);
        },
      },
      {
        route: 'DELETE /users/:id/identities/:provider',
        prepare: async () => {
          const username = name('ident');
          const made = await ok('POST', '/users', {
            username,
            email: `${username}@example.com`,
            name: username,
            password: 'benchpass123',
            provider: 'github',
            extern_uid: username,
          });
          return req('DELETE', `/users/${made.id}/identities/github`);
        },
      },
      {
        route: 'PUT /users/:id/custom_attributes/:key',
        prepare: async () =>
          req('PUT', `/users/${users[0]?.id}/custom_attributes/tier`, { value: name('gold') }),
      },
      {
        route: 'DELETE /users/:id/custom_attributes/:key',
        prepare: async (rep) => {
          await ok('PUT', `/users/${users[0]?.id}/custom_attributes/gone${rep}`, { value: 'x' });
          return req('DELETE', `/users/${users[0]?.id}/custom_attributes/gone${rep}`);
        },
      },
      {
        route: 'POST /users/:user_id/personal_access_tokens',
        prepare: async () =>
          req('POST', `/users/${users[0]?.id}/personal_access_tokens`, {
            name: name('token'),
            scopes: ['api'],
          }),
      },
      {
        route: 'DELETE /personal_access_tokens/:id',
        prepare: async () => req('DELETE', `/personal_access_tokens/${(await tokenOf(take().id)).id}`),
      },
      {
        route: 'DELETE /personal_access_tokens/self',
        prepare: async () =>
          req('DELETE', '/personal_access_tokens/self', undefined, (await tokenOf(take().id)).token),
      },
      // Groups.
      {
        route: 'POST /groups',
        prepare: async () => {
          const path = name('new-group');
          return req('POST', '/groups', { name: path, path });
        },
      },
      {
        route: 'PUT /groups/:id',
        prepare: async () => req('PUT', `/groups/${group.id}`, { description: name('description') }),
      },
      { route: 'DELETE /groups/:id', prepare: async () => req('DELETE', `/groups/${(await newGroup()).id}`) },
      {
        route: 'POST /groups/:id/members',
        prepare: async () =>
          req('POST', `/groups/${group.id}/members`, { user_id: take().id, access_level: 30 }),
      },
      {
        route: 'PUT /groups/:id/members/:user_id',
        prepare: async () => {
          const { id } = take();
          await ok('POST', `/groups/${group.id}/members`, { user_id: id, access_level: 30 });
          return req('PUT', `/groups/${group.id}/members/${id}`, { access_level: 40 });
        },
      },
      {
        route: 'DELETE /groups/:id/members/:user_id',
        prepare: async () => {
          const { id } = take();
          await ok('POST', `/groups/${group.id}/members`, { user_id: id, access_level: 30 });
          return req('DELETE', `/groups/${group.id}/members/${id}`);
        },
      },
      {
        route: 'PUT /groups/:id/custom_attributes/:key',
        prepare: async () =>
          req('PUT', `/groups/${group.id}/custom_attributes/tier`, { value: name('gold') }),
      },
      {
        route: 'DELETE /groups/:id/custom_attributes/:key',
        prepare: async (rep) => {
          await ok('PUT', `/groups/${group.id}/custom_attributes/gone${rep}`, { value: 'x' });
          return req('DELETE', `/groups/${group.id}/custom_attributes/gone${rep}`);
        },
      },
      {
        route: 'POST /groups/:id/projects/:project_id',
        prepare: async () => {
          const moved = await ok('POST', '/projects', { name: name('moved') });
          return req('POST', `/groups/${shareGroup.id}/projects/${moved.id}`);
        },
      },
      {
        route: 'POST /groups/:id/transfer',
        prepare: async () => {
          const [moved, parent] = [await newGroup(), await newGroup()];
          return req('POST', `/groups/${moved.id}/transfer`, { group_id: parent.id });
        },
      },
      {
        route: 'POST /groups/:id/share',
        prepare: async () =>
          req('POST', `/groups/${(await newGroup()).id}/share`, {
            group_id: shareGroup.id,
            group_access: 30,
          }),
      },
      {
        route: 'DELETE /groups/:id/share/:group_id',
        prepare: async () => {
          const sharing = await newGroup();
          await ok('POST', `/groups/${sharing.id}/share`, { group_id: shareGroup.id, group_access: 30 });
          return req('DELETE', `/groups/${sharing.id}/share/${shareGroup.id}`);
        },
      },
      // Projects.
      {
        route: 'POST /projects',
        prepare: async () => req('POST', '/projects', { name: name('new-project'), namespace_id: group.id }),
      },
      {
        route: 'POST /projects/user/:user_id',
        prepare: async () => req('POST', `/projects/user/${take().id}`, { name: name('for-user') }),
      },
      {
        route: 'PUT /projects/:id',
        prepare: async () => req('PUT', p, { description: name('description') }),
      },
      {
        route: 'DELETE /projects/:id',
        prepare: async () => req('DELETE', `/projects/${(await newProject()).id}`),
      },
      {
        route: 'POST /projects/:id/fork',
        prepare: async () =>
          req('POST', `/projects/${forkSource.id}/fork`, {}, (await tokenOf(take().id)).token),
      },
      {
        route: 'POST /projects/:id/fork/:forked_from_id',
        prepare: async () => req('POST', `/projects/${(await newProject()).id}/fork/${forkSource.id}`),
      },
      {
        route: 'DELETE /projects/:id/fork',
        prepare: async () => {
          const linked = await newProject();
          await ok('POST', `/projects/${linked.id}/fork/${forkSource.id}`);
          return req('DELETE', `/projects/${linked.id}/fork`);
        },
      },
      {
        // A project of its own each time: a second housekeeping of one project soon after is 409.
        route: 'POST /projects/:id/housekeeping',
        prepare: async () => req('POST', `/projects/${(await newProject()).id}/housekeeping`),
      },
      {
        route: 'POST /projects/:id/mirror/pull',
        prepare: async () => {
          const mirror = await newProject({
            mirror: true,
            import_url: 'http://127.0.0.1:9/bench-mirror.git',
          });
          await bench.runtime.idle();
          return req('POST', `/projects/${mirror.id}/mirror/pull`);
        },
      },
      {
        route: 'POST /projects/:id/star',
        prepare: async (rep) =>
          req('POST', `/projects/${starred.id}/star`, undefined, (await starrer(rep)).token),
      },
      {
        route: 'POST /projects/:id/unstar',
        prepare: async (rep) => {
          const user = await starrer(rep);
          const star = await call(apiUrl, 'POST', `/projects/${starred.id}/star`, { token: user.token });
          if (star.status !== 201 && star.status !== 304) throw new Error(`set-up star: ${star.status}`);
          return req('POST', `/projects/${starred.id}/unstar`, undefined, user.token);
        },
      },
      {
        route: 'POST /projects/:id/archive',
        prepare: async () => req('POST', `/projects/${(await newProject()).id}/archive`),
      },
      {
        route: 'POST /projects/:id/unarchive',
        prepare: async () => {
          const archived = await newProject();
          await ok('POST', `/projects/${archived.id}/archive`);
          return req('POST', `/projects/${archived.id}/unarchive`);
        },
      },
      {
        route: 'POST /projects/:id/share',
        prepare: async () =>
          req('POST', `/projects/${(await newProject()).id}/share`, {
            group_id: shareGroup.id,
            group_access: 30,
          }),
      },
      {
        route: 'DELETE /projects/:id/share/:group_id',
        prepare: async () => {
          const sharing = await newProject();
          await ok('POST', `/projects/${sharing.id}/share`, { group_id: shareGroup.id, group_access: 30 });
          return req('DELETE', `/projects/${sharing.id}/share/${shareGroup.id}`);
        },
      },
      {
        route: 'POST /projects/:id/uploads',
        prepare: async () => ({
          method: 'POST',
          path: `${p}/uploads`,
          form: () => {
            const form = new FormData();
            form.append('file', new Blob(['a small bench upload\n'], { type: 'text/plain' }), 'bench.txt');
            return form;
          },
        }),
      },
      {
        route: 'POST /projects/:id/members',
        prepare: async () => req('POST', `${p}/members`, { user_id: take().id, access_level: 30 }),
      },
      {
        route: 'PUT /projects/:id/members/:user_id',
        prepare: async () => {
          const { id } = take();
          await ok('POST', `${p}/members`, { user_id: id, access_level: 30 });
          return req('PUT', `${p}/members/${id}`, { access_level: 40 });
        },
      },
      {
        route: 'DELETE /projects/:id/members/:user_id',
        prepare: async () => {
          const { id } = take();
          await ok('POST', `${p}/members`, { user_id: id, access_level: 30 });
          return req('DELETE', `${p}/members/${id}`);
        },
      },
      {
        route: 'PUT /projects/:id/custom_attributes/:key',
        prepare: async () => req('PUT', `${p}/custom_attributes/tier`, { value: name('gold') }),
      },
      {
        route: 'DELETE /projects/:id/custom_attributes/:key',
        prepare: async (rep) => {
          await ok('PUT', `${p}/custom_attributes/gone${rep}`, { value: 'x' });
          return req('DELETE', `${p}/custom_attributes/gone${rep}`);
        },
      },
      {
        route: 'PUT /projects/:id/transfer',
        prepare: async () =>
          req('PUT', `/projects/${(await newProject()).id}/transfer`, { namespace: shareGroup.id }),
      },
      // Issues, merge requests, snippets, epics and their notes.
      {
        route: 'POST /projects/:id/issues',
        prepare: async () => req('POST', `${p}/issues`, { title: name('issue') }),
      },
      {
        route: 'PUT /projects/:id/issues/:issue_iid',
        variant: 'edit',
        prepare: async () =>
          req('PUT', `${p}/issues/${(await newIssue()).iid}`, { description: name('description') }),
      },
      {
        route: 'PUT /projects/:id/issues/:issue_iid',
        variant: 'close',
        prepare: async () => req('PUT', `${p}/issues/${(await newIssue()).iid}`, { state_event: 'close' }),
      },
      {
        route: 'DELETE /projects/:id/issues/:issue_iid',
        prepare: async () => req('DELETE', `${p}/issues/${(await newIssue()).iid}`),
      },
      {
        route: 'POST /projects/:id/issues/:issue_iid/notes',
        prepare: async () => req('POST', noteables.issue, { body: noteBody('issue') }),
      },
      {
        route: 'PUT /projects/:id/issues/:issue_iid/notes/:note_id',
        prepare: async () =>
          req('PUT', `${noteables.issue}/${(await newNote(noteables.issue)).id}`, { body: name('edited') }),
      },
      {
        route: 'DELETE /projects/:id/issues/:issue_iid/notes/:note_id',
        prepare: async () => req('DELETE', `${noteables.issue}/${(await newNote(noteables.issue)).id}`),
      },
      {
        route: 'POST /projects/:id/merge_requests',
        prepare: async () =>
          req('POST', `${p}/merge_requests`, {
            source_branch: name('feature'),
            target_branch: 'master',
            title: name('mr'),
          }),
      },
      {
        route: 'PUT /projects/:id/merge_requests/:merge_request_iid',
        prepare: async () =>
          req('PUT', `${p}/merge_requests/${(await newMr()).iid}`, { description: name('description') }),
      },
      {
        route: 'DELETE /projects/:id/merge_requests/:merge_request_iid',
        prepare: async () => req('DELETE', `${p}/merge_requests/${(await newMr()).iid}`),
      },
      {
        route: 'POST /projects/:id/merge_requests/:merge_request_iid/notes',
        prepare: async () => req('POST', noteables.mr, { body: noteBody('merge request') }),
      },
      {
        route: 'PUT /projects/:id/merge_requests/:merge_request_iid/notes/:note_id',
        prepare: async () =>
          req('PUT', `${noteables.mr}/${(await newNote(noteables.mr)).id}`, { body: name('edited') }),
      },
      {
        route: 'DELETE /projects/:id/merge_requests/:merge_request_iid/notes/:note_id',
        prepare: async () => req('DELETE', `${noteables.mr}/${(await newNote(noteables.mr)).id}`),
      },
      {
        route: 'POST /projects/:id/snippets',
        prepare: async () =>
          req('POST', `${p}/snippets`, {
            title: name('snippet'),
            file_name: 'bench.txt',
            content: 'the build passes locally but the pipeline times out on the integration stage',
            visibility: 'public',
          }),
      },
      {
        route: 'PUT /projects/:id/snippets/:snippet_id',
        prepare: async () =>
          req('PUT', `${p}/snippets/${(await newSnippet()).id}`, { description: name('description') }),
      },
      {
        route: 'DELETE /projects/:id/snippets/:snippet_id',
        prepare: async () => req('DELETE', `${p}/snippets/${(await newSnippet()).id}`),
      },
      {
        route: 'POST /projects/:id/snippets/:snippet_id/notes',
        prepare: async () => req('POST', noteables.snippet, { body: noteBody('snippet') }),
      },
      {
        route: 'PUT /projects/:id/snippets/:snippet_id/notes/:note_id',
        prepare: async () =>
          req('PUT', `${noteables.snippet}/${(await newNote(noteables.snippet)).id}`, {
            body: name('edited'),
          }),
      },
      {
        route: 'DELETE /projects/:id/snippets/:snippet_id/notes/:note_id',
        prepare: async () => req('DELETE', `${noteables.snippet}/${(await newNote(noteables.snippet)).id}`),
      },
      // Personal snippets: a visibility change moves the snippet between two counted lists.
      {
        route: 'POST /snippets',
        prepare: async () => req('POST', '/snippets', personalSnippet()),
      },
      {
        route: 'PUT /snippets/:id',
        prepare: async () =>
          req('PUT', `/snippets/${(await ok('POST', '/snippets', personalSnippet())).id}`, {
            visibility: 'private',
          }),
      },
      {
        route: 'DELETE /snippets/:id',
        prepare: async () =>
          req('DELETE', `/snippets/${(await ok('POST', '/snippets', personalSnippet())).id}`),
      },
      {
        route: 'POST /groups/:id/epics',
        prepare: async () => req('POST', `/groups/${group.id}/epics`, { title: name('epic') }),
      },
      {
        route: 'PUT /groups/:id/epics/:epic_iid',
        prepare: async () =>
          req('PUT', `/groups/${group.id}/epics/${(await newEpic()).iid}`, {
            description: name('description'),
          }),
      },
      {
        route: 'DELETE /groups/:id/epics/:epic_iid',
        prepare: async () => req('DELETE', `/groups/${group.id}/epics/${(await newEpic()).iid}`),
      },
      {
        route: 'POST /groups/:id/epics/:epic_id/notes',
        prepare: async () => req('POST', noteables.epic, { body: noteBody('epic') }),
      },
      {
        route: 'PUT /groups/:id/epics/:epic_id/notes/:note_id',
        prepare: async () =>
          req('PUT', `${noteables.epic}/${(await newNote(noteables.epic)).id}`, { body: name('edited') }),
      },
      {
        route: 'DELETE /groups/:id/epics/:epic_id/notes/:note_id',
        prepare: async () => req('DELETE', `${noteables.epic}/${(await newNote(noteables.epic)).id}`),
      },
      // Hooks and push rules.
      {
        route: 'POST /projects/:id/hooks',
        prepare: async () =>
          req('POST', h, { url: `${receiver.origin}/${name('hook')}`, push_events: false }),
      },
      {
        route: 'PUT /projects/:id/hooks/:hook_id',
        prepare: async () =>
          req('PUT', `${h}/${hook.id}`, { url: `${receiver.origin}/${name('hook')}`, issues_events: true }),
      },
      {
        route: 'DELETE /projects/:id/hooks/:hook_id',
        prepare: async () => {
          const gone = await ok('POST', h, { url: `${receiver.origin}/${name('hook')}`, push_events: false });
          return req('DELETE', `${h}/${gone.id}`);
        },
      },
      {
        route: 'POST /projects/:id/hooks/:hook_id/test/:trigger',
        prepare: async () => req('POST', `${h}/${hook.id}/test/push_events`),
      },
      {
        route: 'POST /projects/:id/hooks/:hook_id/events/:hook_log_id/resend',
        prepare: async () => req('POST', `${h}/${hook.id}/events/${logged.id}/resend`),
      },
      {
        route: 'POST /projects/:id/push_rule',
        prepare: async () =>
          req('POST', `/projects/${(await newProject()).id}/push_rule`, { deny_delete_tag: true }),
      },
      {
        route: 'PUT /projects/:id/push_rule',
        prepare: async () => {
          const ruled = await newProject();
          await ok('POST', `/projects/${ruled.id}/push_rule`, { deny_delete_tag: true });
          return req('PUT', `/projects/${ruled.id}/push_rule`, { commit_message_regex: 'JIRA-\\d+' });
        },
      },
      {
        route: 'DELETE /projects/:id/push_rule',
        prepare: async () => {
          const ruled = await newProject();
          await ok('POST', `/projects/${ruled.id}/push_rule`, { deny_delete_tag: true });
          return req('DELETE', `/projects/${ruled.id}/push_rule`);
        },
      },
      // Labels and milestones, of the project (in the group, so its labels promote) and of the group.
      ...(['project', 'group'] as const).flatMap((kind): Scenario[] => {
        const owner = kind === 'project' ? p : groupPath;
        const at = `/${kind}s/:id/labels`;
        const labels = `${owner}/labels`;
        return [
          {
            route: `POST ${at}`,
            prepare: async () => req('POST', labels, { name: name('label'), color: labelColor }),
          },
          {
            route: `PUT ${at}`,
            prepare: async () => req('PUT', labels, { name: (await newLabel(owner)).name, color: '#FF0000' }),
          },
          {
            route: `DELETE ${at}`,
            prepare: async () => req('DELETE', labels, { name: (await newLabel(owner)).name }),
          },
          {
            route: `PUT ${at}/:label_id`,
            prepare: async () => req('PUT', `${labels}/${(await newLabel(owner)).id}`, { color: '#FF0000' }),
          },
          {
            route: `DELETE ${at}/:label_id`,
            prepare: async () => req('DELETE', `${labels}/${(await newLabel(owner)).id}`),
          },
          {
            route: `POST ${at}/:label_id/subscribe`,
            prepare: async () => req('POST', `${labels}/${(await newLabel(owner)).id}/subscribe`),
          },
          {
            route: `POST ${at}/:label_id/unsubscribe`,
            prepare: async () => {
              const { id } = await newLabel(owner);
              await ok('POST', `${labels}/${id}/subscribe`);
              return req('POST', `${labels}/${id}/unsubscribe`);
            },
          },
          ...(kind === 'project'
            ? [
                {
                  route: `PUT ${at}/promote`,
                  prepare: async () =>
                    req('PUT', `${labels}/promote`, { name: (await newLabel(owner)).name }),
                },
                {
                  route: `PUT ${at}/:label_id/promote`,
                  prepare: async () => req('PUT', `${labels}/${(await newLabel(owner)).id}/promote`),
                },
              ]
            : []),
          {
            route: `POST /${kind}s/:id/milestones`,
            prepare: async () => req('POST', `${owner}/milestones`, { title: name('milestone') }),
          },
          {
            route: `PUT /${kind}s/:id/milestones/:milestone_id`,
            prepare: async () =>
              req('PUT', `${owner}/milestones/${(await newMilestone(owner)).id}`, {
                description: name('description'),
              }),
          },
          {
            route: `DELETE /${kind}s/:id/milestones/:milestone_id`,
            prepare: async () => req('DELETE', `${owner}/milestones/${(await newMilestone(owner)).id}`),
          },
        ];
      }),
      // Award emoji: a thumbs up (a counted vote) on an awardable of its own each time, as one user
      // awards a name once per awardable.
      ...[
        {
          at: '/projects/:id/issues/:issue_iid',
          make: async () => `${p}/issues/${(await newIssue()).iid}`,
        },
        {
          at: '/projects/:id/merge_requests/:merge_request_iid',
          make: async () => `${p}/merge_requests/${(await newMr()).iid}`,
        },
        {
          at: '/projects/:id/snippets/:snippet_id',
          make: async () => `${p}/snippets/${(await newSnippet()).id}`,
        },
        {
          at: '/projects/:id/issues/:issue_iid/notes/:note_id',
          make: async () => `${noteables.issue}/${(await newNote(noteables.issue)).id}`,
        },
        {
          at: '/projects/:id/merge_requests/:merge_request_iid/notes/:note_id',
          make: async () => `${noteables.mr}/${(await newNote(noteables.mr)).id}`,
        },
        {
          at: '/projects/:id/snippets/:snippet_id/notes/:note_id',
          make: async () => `${noteables.snippet}/${(await newNote(noteables.snippet)).id}`,
        },
      ].flatMap(({ at, make }): Scenario[] => [
        {
          route: `POST ${at}/award_emoji`,
          prepare: async () => req('POST', `${await make()}/award_emoji`, { name: 'thumbsup' }),
        },
        {
          route: `DELETE ${at}/award_emoji/:award_id`,
          prepare: async () => {
            const awarded = await make();
            const award = await ok('POST', `${awarded}/award_emoji`, { name: 'thumbsup' });
            return req('DELETE', `${awarded}/award_emoji/${award.id}`);
          },
        },
      ]),
      // Discussions on the noteables the note calls write to: a new thread, a reply, a thread's
      // note edited and deleted, a merge request's thread resolved.
      ...[
        { at: '/projects/:id/issues/:issue_iid', parent: `${p}/issues/${issue.iid}` },
        { at: '/projects/:id/merge_requests/:merge_request_iid', parent: `${p}/merge_requests/${mr.iid}` },
        { at: '/projects/:id/snippets/:snippet_id', parent: `${p}/snippets/${snippet.id}` },
        { at: '/groups/:id/epics/:epic_id', parent: `${groupPath}/epics/${epic.id}` },
      ].flatMap(({ at, parent }): Scenario[] => {
        const discussions = `${parent}/discussions`;
        const newThread = async () => {
          const thread = await ok<{ id: string; notes: { id: number }[] }>('POST', discussions, {
            body: noteBody('thread'),
          });
          const first = thread.notes[0];
          if (!first) throw new Error(`set-up POST ${discussions}: a thread without a note`);
          return { id: thread.id, noteId: first.id };
        };
        return [
          {
            route: `POST ${at}/discussions`,
            prepare: async () => req('POST', discussions, { body: noteBody('discussion') }),
          },
          {
            route: `POST ${at}/discussions/:discussion_id/notes`,
            prepare: async () =>
              req('POST', `${discussions}/${(await newThread()).id}/notes`, { body: noteBody('reply') }),
          },
          {
            route: `PUT ${at}/discussions/:discussion_id/notes/:note_id`,
            prepare: async () => {
              const thread = await newThread();
              return req('PUT', `${discussions}/${thread.id}/notes/${thread.noteId}`, {
                body: name('edited'),
              });
            },
          },
          {
            route: `DELETE ${at}/discussions/:discussion_id/notes/:note_id`,
            prepare: async () => {
              const thread = await newThread();
              return req('DELETE', `${discussions}/${thread.id}/notes/${thread.noteId}`);
            },
          },
          ...(at.includes('merge_requests')
            ? [
                {
                  route: `PUT ${at}/discussions/:discussion_id`,
                  prepare: async () =>
                    req('PUT', `${discussions}/${(await newThread()).id}`, { resolved: true }),
                },
              ]
            : []),
        ];
      }),
      // The repository: refs, files and commits on `main`, protected branches, merge and rebase.
      {
        route: 'POST /projects/:id/repository/branches',
        prepare: async () => req('POST', `${r}/repository/branches`, { branch: name('branch'), ref: 'main' }),
      },
      {
        route: 'DELETE /projects/:id/repository/branches/:branch',
        prepare: async () => req('DELETE', `${r}/repository/branches/${await newBranch()}`),
      },
      {
        route: 'POST /projects/:id/repository/tags',
        prepare: async () => req('POST', `${r}/repository/tags`, { tag_name: name('tag'), ref: 'main' }),
      },
      {
        route: 'DELETE /projects/:id/repository/tags/:tag_name',
        prepare: async () => {
          const tag = name('tag');
          await ok('POST', `${r}/repository/tags`, { tag_name: tag, ref: 'main' });
          return req('DELETE', `${r}/repository/tags/${tag}`);
        },
      },
      {
        route: 'POST /projects/:id/repository/files/:file_path',
        prepare: async () => {
          const path = `${name('file')}.txt`;
          return req('POST', repoFile(path), {
            branch: 'main',
            content: fileContent,
            commit_message: `Add ${path}`,
          });
        },
      },
      {
        route: 'PUT /projects/:id/repository/files/:file_path',
        prepare: async () => {
          const path = await commitFile('main');
          return req('PUT', repoFile(path), {
            branch: 'main',
            content: `${fileContent}and now it passes\n`,
            commit_message: `Change ${path}`,
          });
        },
      },
      {
        route: 'DELETE /projects/:id/repository/files/:file_path',
        prepare: async () => {
          const path = await commitFile('main');
          return req('DELETE', repoFile(path), { branch: 'main', commit_message: `Remove ${path}` });
        },
      },
      {
        route: 'POST /projects/:id/repository/commits',
        prepare: async () =>
          req('POST', `${r}/repository/commits`, {
            branch: 'main',
            commit_message: name('commit'),
            actions: [
              { action: 'create', file_path: `${name('file')}.txt`, content: fileContent },
              { action: 'update', file_path: 'README.md', content: `# ${name('readme')}\n` },
            ],
          }),
      },
      {
        route: 'POST /projects/:id/protected_branches',
        prepare: async () => req('POST', `${r}/protected_branches`, { name: name('protected') }),
      },
      {
        route: 'PATCH /projects/:id/protected_branches/:name',
        prepare: async () => {
          const protectedName = name('protected');
          await ok('POST', `${r}/protected_branches`, { name: protectedName });
          return req('PATCH', `${r}/protected_branches/${protectedName}`, { allow_force_push: true });
        },
      },
      {
        route: 'DELETE /projects/:id/protected_branches/:name',
        prepare: async () => {
          const protectedName = name('protected');
          await ok('POST', `${r}/protected_branches`, { name: protectedName });
          return req('DELETE', `${r}/protected_branches/${protectedName}`);
        },
      },
      {
        route: 'PUT /projects/:id/merge_requests/:merge_request_iid/merge',
        prepare: async () => req('PUT', `${r}/merge_requests/${(await branchMr(false)).iid}/merge`),
      },
      {
        route: 'PUT /projects/:id/merge_requests/:merge_request_iid/rebase',
        prepare: async () => req('PUT', `${r}/merge_requests/${(await branchMr(true)).iid}/rebase`),
      },
    ];

    // Star and unstar: a user of its own per repetition, its token made once.
    const starrers = new Map<number, { token: string }>();
    async function starrer(rep: number) {
      let found = starrers.get(rep);
      if (!found) {
        found = { token: (await tokenOf(take().id)).token };
        starrers.set(rep, found);
      }
      return found;
    }
    // Every caller's first request before anything is metered (a credential's first request in a
    // container also reads its memberships).
    await ok('GET', '/user');

    meter = await installWriteMeter(documentClient(), {
      endpoint: config.dynamodbEndpoint ?? '',
      tableName: config.tableName,
      idBlockSize: options.idBlockSize,
    });
    const active = meter;
    const results: ScenarioResult[] = [];
    for (const scenario of scenarios) {
      const repsDone: Rep[] = [];
      for (let rep = 0; rep < reps; rep++) {
        let request: Request;
        try {
          request = await scenario.prepare(rep);
        } catch (error) {
          repsDone.push({ ...repOf(0, []), commands: [`set-up failed: ${(error as Error).message}`] });
          continue;
        }
        await bench.runtime.idle();
        const recorded = await bench.record(() =>
          active.measure(() =>
            call(apiUrl, request.method, request.path, {
              token: request.token ?? root,
              json: request.json,
              body: request.form?.(),
            }).catch((error: Error) => ({ status: 0, text: error.message })),
          ),
        );
        const { status, text } = recorded.value.value;
        repsDone.push({
          ...repOf(status, recorded.value.writes),
          ...(status === 0 ? { commands: [`no answer: ${text}`] } : {}),
        });
      }
      const worst = repsDone.reduce((max, rep) => (rep.total > max.total ? rep : max));
      const largest = Object.entries(worst.indexes).sort(([, a], [, b]) => b - a)[0];
      const budget = scenario.variant ? undefined : WRITE_BUDGETS[scenario.route];
      const why: string[] = [];
      const statuses = repsDone.map((rep) => rep.status);
      if (!statuses.every(is2xx))
        why.push(
          `answered ${statuses.join('/')}${repsDone
            .filter((rep) => rep.status === 0)
            .map((rep) => ` (${rep.commands.join(' ')})`)
            .join('')}`,
        );
      if (budget !== undefined && worst.total > budget) why.push(`${worst.total} WRU > ${budget}`);
      results.push({
        route: scenario.route,
        variant: scenario.variant,
        statuses,
        worst,
        totals: repsDone.map((rep) => rep.total),
        largestIndex: largest ? { name: largest[0], units: largest[1] } : undefined,
        budget,
        holds: why.length === 0,
        why,
      });
    }

    const writeRoutes = routes
      .filter((route) => route.method !== 'GET' && route.method !== 'ANY')
      .map((route) => routeKey(route.method, route.path));
    const measured = new Set(results.map((result) => result.route));
    const unreachable = writeRoutes.filter((route) => !measured.has(route) && UNREACHABLE[route]);
    const uncovered = writeRoutes.filter((route) => !measured.has(route) && !UNREACHABLE[route]);
    const unknownRoutes = [...measured].filter((route) => !writeRoutes.includes(route));
    const failing = results.filter((result) => !result.holds);
    const holds = failing.length === 0 && uncovered.length === 0 && unknownRoutes.length === 0;

    const rows: (string | number)[][] = [
      [
        'route',
        'status',
        'writes (commands)',
        'table',
        'index',
        'largest index',
        'total',
        'range',
        'DDB Local',
        'id blk',
        'budget',
        'ok',
      ],
      ...results.map((result) => [
        `${result.route}${result.variant ? ` (${result.variant})` : ''}`,
        [...new Set(result.statuses)].join('/'),
        result.worst.commands.join(' ') || '-',
        result.worst.table,
        result.worst.indexTotal,
        result.largestIndex ? `${result.largestIndex.name} ${result.largestIndex.units}` : '-',
        result.worst.total,
        Math.min(...result.totals) === Math.max(...result.totals)
          ? '-'
          : `${Math.min(...result.totals)}–${Math.max(...result.totals)}`,
        result.worst.reported,
        result.worst.idBlockUnits || '-',
        result.budget ?? '-',
        result.holds ? (result.budget === undefined ? 'yes' : 'HOLDS') : 'NO',
      ]),
    ];
    const indexCount = meter.schema.indexes.length;
    const budgeted = results.filter((result) => result.budget !== undefined);
    const costliest = [...results].sort((a, b) => b.worst.total - a.worst.total).slice(0, 5);
    const notes = [
      `Each call ${reps}× alone through the local gateway, as root unless the route needs the user itself (star, unstar, fork, DELETE /personal_access_tokens/self: a user of its own with a token), on things made through the API beforehand; the runtime idle before each call and its queue messages held until it answered (the workers' writes are not the call's). Table: ${meter.schema.hash}/${meter.schema.range ?? '-'} with ${indexCount} indexes (${meter.schema.indexes
        .map((index) => `${index.name} ${index.kind} ${index.projection}`)
        .join(', ')}).`,
      'Stream consumers’ writes are not the call’s and are left out: the touch of a new note’s parent, and the rollup of a counted item (1 WRU per counted item per stream batch, whatever the number of changes in it, a project’s or issue’s counters summed for list pages; docs/capacity.md).',
      'WRU on DynamoDB’s documented rules, from each written item as read before and after the command (test/bench/write-capacity.ts): table = per item the larger of before/after (a delete: before; a ConditionCheck: the item checked), a started KB a unit, ×2 in a TransactWriteItems; index = per index whose entry appears, goes, moves (×2) or changes, the entry’s size (projection ALL: the whole item), not doubled in a transaction. The figure is the most expensive repetition ("range" when they differ). "DDB Local" = what DynamoDB Local reported with ReturnConsumedCapacity INDEXES (table + indexes), information only: it doubles index units in transactions and charges indexes the item did not change. "id blk" = id-block reservations seen (1 WRU per ID_BLOCK_SIZE ids), left out of the figure.',
      `Budgets: ${Object.entries(WRITE_BUDGETS)
        .map(([route, budget]) => `${route} ≤ ${budget}`)
        .join(', ')}.`,
      `Costliest: ${costliest.map((result) => `${result.route}${result.variant ? ` (${result.variant})` : ''} ${result.worst.total} WRU (table ${result.worst.table}, indexes ${result.worst.indexTotal})`).join('; ')}.`,
      `Write routes in the route table: ${writeRoutes.length}; measured ${measured.size}${
        unreachable.length
          ? `; not reachable here: ${unreachable.map((route) => `${route} (${UNREACHABLE[route]})`).join('; ')}`
          : ''
      }.`,
      ...uncovered.map((route) => `NOT MEASURED ${route}: no scenario in test/bench/b10-write-cost.ts`),
      ...unknownRoutes.map(
        (route) => `UNKNOWN ROUTE ${route}: a scenario for a route the table does not have`,
      ),
      ...failing.map(
        (result) =>
          `FAIL ${result.route}${result.variant ? ` (${result.variant})` : ''}: ${result.why.join('; ')}`,
      ),
    ];
    const figure = (route: string) =>
      results.find((result) => result.route === route && !result.variant)?.worst.total;
    const noteFigures = budgeted
      .filter((result) => result.route.endsWith('/notes'))
      .map((result) => result.worst.total);
    return {
      id: 'B10',
      title:
        'Write cost per request on DynamoDB’s documented rules (table and indexes apart): star ≤ 8 WRU, note ≤ 12, issue ≤ 16',
      holds,
      summary: `star ${figure('POST /projects/:id/star')} WRU (≤ 8), note ${Math.max(...noteFigures)} WRU at most (≤ 12), issue ${figure(
        'POST /projects/:id/issues',
      )} WRU (≤ 16); ${budgeted.filter((result) => result.holds).length}/${budgeted.length} budgeted routes within; ${measured.size}/${writeRoutes.length} write routes measured${
        uncovered.length ? `, ${uncovered.length} NOT` : ''
      }, ${unreachable.length} unreachable (LDAP)${
        failing.some((result) => !result.statuses.every(is2xx))
          ? `; ${failing.filter((result) => !result.statuses.every(is2xx)).length} calls not 2xx`
          : ''
      }`,
      table: table(rows),
      notes,
      details: {
        options,
        schema: meter.schema,
        results,
        unreachable: Object.fromEntries(unreachable.map((route) => [route, UNREACHABLE[route]])),
        uncovered,
      },
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    meter?.uninstall();
    await receiver.close();
  }
}
