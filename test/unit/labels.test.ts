import { describe, expect, it } from 'vitest';
import { ApiError } from '#domain/errors.ts';
import {
  labelChanges,
  labelColor,
  labelsAfter,
  labelsMatch,
  newLabelFrom,
  promotion,
  refuseEmptyLabelUpdate,
  textColorFor,
  titleErrors,
} from '#domain/labels.ts';

const project = { kind: 'project', id: 1 } as const;
const group = { kind: 'group', id: 2 } as const;

const bodyOf = (action: () => unknown) => {
  try {
    action();
  } catch (error) {
    if (error instanceof ApiError) return { status: error.status, body: error.body };
    throw error;
  }
  throw new Error('expected a refusal');
};

describe('label colours', () => {
  it('takes #rgb and #rrggbb as sent and CSS names as their hex code', () => {
    expect(labelColor('#abc')).toBe('#abc');
    expect(labelColor(' #A1b2C3 ')).toBe('#A1b2C3');
    expect(labelColor('Red')).toBe('#FF0000');
    expect(labelColor('lightgoldenrodyellow')).toBe('#FAFAD2');
  });

  it('refuses anything else', () => {
    for (const color of ['', 'abc', '#abcd', '#12345', '#ggg', 'reddish', '#abc ;'])
      expect(labelColor(color), color).toBeUndefined();
  });

  it('picks dark text on light colours and white on dark ones', () => {
    expect(textColorFor('#FFFFFF')).toBe('#333333');
    expect(textColorFor('#fff')).toBe('#333333');
    expect(textColorFor('#428BCA')).toBe('#FFFFFF');
    expect(textColorFor('#000')).toBe('#FFFFFF');
  });
});

describe('label titles', () => {
  it('gives the model sentences in its order', () => {
    expect(titleErrors('bug')).toEqual([]);
    expect(titleErrors('')).toEqual(["can't be blank", 'is invalid']);
    expect(titleErrors('a,b')).toEqual(['is invalid']);
    expect(titleErrors('x'.repeat(255))).toEqual([]);
    expect(titleErrors('x'.repeat(256))).toEqual(['is too long (maximum is 255 characters)']);
  });

  it('trims a new label and refuses a bad title and colour together', () => {
    expect(newLabelFrom({ name: '  bug ', color: 'navy', priority: 2 }, project)).toEqual({
      title: 'bug',
      color: '#000080',
      description: null,
      priority: 2,
      owner: project,
    });
    expect(newLabelFrom({ name: 'x', color: '#fff', priority: 2 }, group).priority).toBeNull();
    expect(bodyOf(() => newLabelFrom({ name: 'a,b', color: 'nope' }, project))).toEqual({
      status: 400,
      body: { message: { color: ['must be a valid color code'], title: ['is invalid'] } },
    });
  });
});

describe('label updates', () => {
  it('needs one field, priority only for project labels', () => {
    expect(bodyOf(() => refuseEmptyLabelUpdate({}, 'project'))).toEqual({
      status: 400,
      body: {
        error: 'new_name, color, description, priority are missing, at least one parameter must be provided',
      },
    });
    expect(() => refuseEmptyLabelUpdate({ priority: null }, 'project')).not.toThrow();
    expect(bodyOf(() => refuseEmptyLabelUpdate({ priority: 1 }, 'group'))).toEqual({
      status: 400,
      body: { error: 'new_name, color, description are missing, at least one parameter must be provided' },
    });
  });

  it('keeps blank values out and clears a priority sent empty', () => {
    expect(labelChanges({ new_name: ' ', description: '', color: 'white', priority: null }, project)).toEqual(
      {
        color: '#FFFFFF',
        priority: null,
      },
    );
    expect(labelChanges({ new_name: ' renamed ' }, group)).toEqual({ title: 'renamed' });
  });
});

describe('labels on issuables', () => {
  it('replaces, then adds, then removes', () => {
    expect(labelsAfter(['a'], {})).toBeUndefined();
    expect(labelsAfter(['a', 'b'], { add_labels: ['c', 'a'] })).toEqual(['a', 'b', 'c']);
    expect(labelsAfter(['a', 'b'], { remove_labels: [' a '] })).toEqual(['b']);
    expect(labelsAfter(['a'], { labels: ['x', ' ', 'y'], add_labels: ['z'], remove_labels: ['y'] })).toEqual([
      'x',
      'z',
    ]);
  });

  it('refuses to grow past the bound, and lets an issuable over it shed labels', () => {
    const titles = (count: number, prefix = 't') => Array.from({ length: count }, (_, i) => `${prefix}${i}`);
    expect(labelsAfter([], { labels: titles(100) })).toHaveLength(100);
    const tooMany = {
      status: 400,
      body: { message: { labels: ['is too long (maximum is 100 labels)'] } },
    };
    expect(bodyOf(() => labelsAfter([], { labels: titles(101) }))).toEqual(tooMany);
    expect(bodyOf(() => labelsAfter(titles(100), { add_labels: ['one more'] }))).toEqual(tooMany);
    // Repeated titles count once.
    expect(labelsAfter([], { labels: [...titles(100), ...titles(100)] })).toHaveLength(100);
    expect(labelsAfter(titles(150), { remove_labels: ['t0'] })).toHaveLength(149);
  });

  it('filters by Any, None and all of those named', () => {
    expect(labelsMatch(['a'], ['Any'])).toBe(true);
    expect(labelsMatch([], ['any'])).toBe(false);
    expect(labelsMatch([], ['None'])).toBe(true);
    expect(labelsMatch(['a'], ['None'])).toBe(false);
    expect(labelsMatch(['a', 'b'], ['a', 'b'])).toBe(true);
    expect(labelsMatch(['a'], ['a', 'b'])).toBe(false);
    expect(labelsMatch([], undefined)).toBe(true);
  });
});

describe('label promotion', () => {
  const label = (id: number, title: string, owner: { kind: 'project' | 'group'; id: number }) => ({
    id,
    title,
    color: '#000',
    description: null,
    priority: null,
    owner,
    created_at: '',
    updated_at: '',
  });

  it("finds the project's own label and the group's label of its title", () => {
    const own = label(1, 'x', project);
    const groups = label(2, 'x', group);
    expect(promotion([own, groups], 'x', group)).toEqual({ label: own, existing: groups });
    expect(promotion([own], '1', group)).toEqual({ label: own, existing: undefined });
    expect(bodyOf(() => promotion([groups], 'x', group))).toEqual({
      status: 404,
      body: { message: '404 Label Not Found' },
    });
  });
});
