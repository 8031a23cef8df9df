/** The pure rules of the label and award list options: label counts, labels with details, the reaction filter. */
import { describe, expect, it } from 'vitest';
import {
  type Label,
  labelCounts,
  labelOwnersNearestFirst,
  labelsByTitleIn,
  withLabelsDetails,
} from '#domain/labels.ts';
import { passesReaction, reactionMatch } from '#domain/reactions.ts';

const PROJECT = { id: 5, namespace: { group_ids: [1, 2] } } as unknown as Parameters<
  typeof labelsByTitleIn
>[0];

const label = (id: number, title: string, owner: Label['owner'], color = '#FFFFFF'): Label => ({
  id,
  title,
  color,
  description: null,
  priority: null,
  owner,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
});

const LABELS = [
  label(10, 'bug', { kind: 'project', id: 5 }),
  label(11, 'bug', { kind: 'group', id: 2 }),
  label(12, 'feature', { kind: 'group', id: 1 }),
  label(13, 'feature', { kind: 'group', id: 2 }, '#000000'),
  label(14, 'docs', { kind: 'group', id: 1 }),
];

describe('label counts', () => {
  it('names the owners of a project’s titles nearest first', () => {
    expect(labelOwnersNearestFirst(PROJECT)).toEqual([
      { kind: 'project', id: 5 },
      { kind: 'group', id: 2 },
      { kind: 'group', id: 1 },
    ]);
  });

  it('counts each title once, for the label it names in the project', () => {
    const counts = labelCounts(LABELS, [
      {
        project: PROJECT,
        openIssues: [['bug', 'feature'], ['bug', 'bug'], ['unknown']],
        closedIssues: [['docs']],
        openMergeRequests: [['feature']],
      },
    ]);
    expect(Object.fromEntries(counts)).toEqual({
      10: { open_issues_count: 2, closed_issues_count: 0, open_merge_requests_count: 0 },
      13: { open_issues_count: 1, closed_issues_count: 0, open_merge_requests_count: 1 },
      14: { open_issues_count: 0, closed_issues_count: 1, open_merge_requests_count: 0 },
    });
  });
});

describe('labels with details', () => {
  it('shows the label each title names, by title, leaving out titles no label has', () => {
    const labelOf = labelsByTitleIn(PROJECT, LABELS);
    const shown = withLabelsDetails({ iid: 1, labels: ['feature', 'gone', 'bug'] }, labelOf);
    expect(shown).toEqual({
      iid: 1,
      labels: [
        {
          id: 10,
          name: 'bug',
          color: '#FFFFFF',
          description: null,
          description_html: '',
          text_color: '#333333',
        },
        {
          id: 13,
          name: 'feature',
          color: '#000000',
          description: null,
          description_html: '',
          text_color: '#FFFFFF',
        },
      ],
    });
    expect(withLabelsDetails({ labels: ['bug'] }, undefined)).toEqual({ labels: ['bug'] });
  });
});

describe('my_reaction_emoji', () => {
  const awards = [
    { awardable_type: 'Issue', awardable_id: 1, name: 'thumbsup' },
    { awardable_type: 'Issue', awardable_id: 2, name: 'tada' },
    { awardable_type: 'MergeRequest', awardable_id: 3, name: 'thumbsup' },
  ];
  const kept = (wanted: string | undefined, caller: number | undefined, type: 'Issue' | 'MergeRequest') => {
    const match = reactionMatch(wanted, caller, awards, type);
    return [1, 2, 3, 4].filter((id) => passesReaction(id, match));
  };

  it('keeps by name, Any and None (any case), per type', () => {
    expect(kept('thumbsup', 7, 'Issue')).toEqual([1]);
    expect(kept('Any', 7, 'Issue')).toEqual([1, 2]);
    expect(kept('none', 7, 'Issue')).toEqual([3, 4]);
    expect(kept('thumbsup', 7, 'MergeRequest')).toEqual([3]);
    expect(kept('tada', 7, 'MergeRequest')).toEqual([]);
  });

  it('is ignored for anonymous callers and when not asked (or blank)', () => {
    expect(kept('thumbsup', undefined, 'Issue')).toEqual([1, 2, 3, 4]);
    expect(kept(undefined, 7, 'Issue')).toEqual([1, 2, 3, 4]);
    expect(kept('', 7, 'Issue')).toEqual([1, 2, 3, 4]);
  });
});
