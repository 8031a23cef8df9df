/**
 * The pure rules of the small reads around an issue: who took part in it, and what a creating
 * request's client leaves for user_agent_detail.
 */
import { describe, expect, it } from 'vitest';
import { participantIds, participantsEntity } from '#domain/issue-participants.ts';
import {
  detailOfCreatingRequest,
  IP_ADDRESS_MAX_LENGTH,
  USER_AGENT_MAX_LENGTH,
  userAgentDetailEntity,
  userAgentDetailOf,
} from '#domain/user-agent-details.ts';
import type { User } from '#domain/users.ts';

describe('participantIds()', () => {
  it('the author, the assignees, then the notes’ authors in their order, each once', () => {
    expect(participantIds({ author_id: 2, assignee_ids: [7, 2] }, [9, 7, 2, 5, 9])).toEqual([2, 7, 9, 5]);
  });

  it('an issue nobody else touched has its author alone', () => {
    expect(participantIds({ author_id: 2, assignee_ids: [] }, [])).toEqual([2]);
  });
});

describe('participantsEntity()', () => {
  it('UserBasic for each, the ghost for a user who is gone', () => {
    const alice = {
      id: 2,
      name: 'Alice',
      username: 'alice',
      state: 'active',
      avatar_url: null,
    } as unknown as User;
    const [first, second] = participantsEntity([2, 99], new Map([[2, alice]]), 'https://gitlab.example.com');
    expect(first).toMatchObject({ id: 2, username: 'alice', web_url: 'https://gitlab.example.com/alice' });
    expect(second).toEqual({
      id: 99,
      name: 'Ghost User',
      username: 'ghost',
      state: 'active',
      avatar_url: 'https://gitlab.example.com/assets/no_avatar.png',
      web_url: 'https://gitlab.example.com/ghost',
    });
  });
});

describe('user agent details', () => {
  it('keeps the User-Agent and address, each cut to its bound, never sent to Akismet', () => {
    expect(userAgentDetailOf({ userAgent: 'curl/8.5.0', sourceIp: '198.51.100.7' })).toEqual({
      user_agent: 'curl/8.5.0',
      ip_address: '198.51.100.7',
      akismet_submitted: false,
    });
    const long = userAgentDetailOf({ userAgent: 'a'.repeat(5000), sourceIp: 'f'.repeat(100) });
    expect([long.user_agent.length, long.ip_address.length]).toEqual([
      USER_AGENT_MAX_LENGTH,
      IP_ADDRESS_MAX_LENGTH,
    ]);
  });

  it('a creating request that names no client leaves none', () => {
    expect(detailOfCreatingRequest({ ip: '198.51.100.7' })).toBeUndefined();
    expect(detailOfCreatingRequest({ userAgent: '  ', ip: '198.51.100.7' })).toBeUndefined();
    expect(detailOfCreatingRequest({ userAgent: 'python-gitlab/3.12.0' })).toEqual({
      user_agent: 'python-gitlab/3.12.0',
      ip_address: '',
      akismet_submitted: false,
    });
  });

  it('the entity shows the three fields', () => {
    const detail = { user_agent: 'x', ip_address: '::1', akismet_submitted: false };
    expect(userAgentDetailEntity({ ...detail, extra: 1 } as typeof detail)).toEqual(detail);
  });
});
