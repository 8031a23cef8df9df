import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { longText, removeDropped } from '#store/table/long-text.ts';

const owner = { pk: 'OWNER#1', sk: 'OWNER' };
const partKey = (item: { pk: string; sk: string }, version: string, index: number) => ({
  pk: item.pk,
  sk: `PART#${version}#${index}`,
});

/** Like a note: plain, gzipped, then parts named with their generation. */
const mapped = longText({
  plain: 'body',
  gzipped: 'body_gz',
  inlineBytes: 1_000,
  parts: { attribute: 'body_parts', versionBytes: 4, kind: 'part', key: partKey },
});

/** Like a snippet: plain, else parts, with a version of its own on every text. */
const versioned = longText({
  plain: 'content',
  inlineBytes: 100,
  parts: {
    attribute: 'content_parts',
    version: 'content_version',
    versionBytes: 6,
    kind: 'part',
    key: partKey,
  },
});

/** Like an issue: plain, else gzipped however long. */
const gzippedOnly = longText({
  plain: 'description',
  gzipped: 'description_gz',
  inlineBytes: 100,
});

/** Text gzip cannot shrink much. */
const noise = (length: number) =>
  Array.from({ length }, (_, index) =>
    String.fromCodePoint(0x4e00 + ((index * 7919 + (index >> 3) * 104729) % 20000)),
  ).join('');

describe('storeText()', () => {
  it('keeps a short text (or none) as it is, and drops the other forms', () => {
    expect(mapped.store(owner, 'short')).toEqual({
      text: 'short',
      fields: { body: 'short' },
      dropped: ['body_gz', 'body_parts'],
      parts: [],
    });
    expect(gzippedOnly.store(owner, null).fields).toEqual({ description: null });
  });

  it('gzips a text that then fits; without parts, however long', () => {
    const long = 'lorem ipsum '.repeat(1_000);
    const stored = mapped.store(owner, long);
    expect(Object.keys(stored.fields)).toEqual(['body_gz']);
    expect(gunzipSync(stored.fields.body_gz as Uint8Array).toString('utf8')).toBe(long);
    expect(stored.dropped).toEqual(['body', 'body_parts']);
    const incompressible = gzippedOnly.store(owner, noise(10_000));
    expect(Object.keys(incompressible.fields)).toEqual(['description_gz']);
    expect(incompressible.dropped).toEqual(['description']);
  });

  it('puts a text that does not fit gzipped into parts of 300 KB under a new generation', () => {
    const text = noise(400_000);
    const stored = mapped.store(owner, text);
    const { generation, count } = stored.fields.body_parts as { generation: string; count: number };
    expect(generation).toMatch(/^[0-9a-f]{8}$/);
    expect(count).toBe(stored.parts.length);
    expect(count).toBeGreaterThan(1);
    expect(stored.parts.map(({ pk, sk, kind }) => ({ pk, sk, kind }))).toEqual(
      Array.from({ length: count }, (_, index) => ({ ...partKey(owner, generation, index), kind: 'part' })),
    );
    expect(stored.parts.every((part) => (part.data as Uint8Array).length <= 300_000)).toBe(true);
    const zipped = Buffer.concat(stored.parts.map((part) => part.data as Uint8Array));
    expect(gunzipSync(zipped).toString('utf8')).toBe(text);
    expect(stored.dropped).toEqual(['body', 'body_gz']);
    expect(mapped.store(owner, text).fields.body_parts).not.toEqual(stored.fields.body_parts);
  });

  it('with a version of its own, writes a new version with every text and counts parts alone', () => {
    const short = versioned.store(owner, 'echo ship');
    expect(Object.keys(short.fields)).toEqual(['content_version', 'content']);
    expect(short.fields.content_version).toMatch(/^[0-9a-f]{12}$/);
    expect(short.dropped).toEqual(['content_parts']);
    const long = versioned.store(owner, 'line\n'.repeat(100));
    expect(long.fields).toEqual({ content_version: long.fields.content_version, content_parts: 1 });
    expect(long.parts[0]).toMatchObject(partKey(owner, String(long.fields.content_version), 0));
    expect(long.dropped).toEqual(['content']);
  });
});

describe('reading back and replacing', () => {
  it('decodes what the item holds itself, leaving a text in parts for readTexts (null until then)', () => {
    const item = { pk: 'OWNER#1', sk: 'OWNER', id: 1, body_gz: gzipSync('zipped') };
    expect(mapped.decodeInline(item)).toEqual({ pk: 'OWNER#1', sk: 'OWNER', id: 1, body: 'zipped' });
    const parted = { id: 1, body_parts: { generation: 'a1b2c3d4', count: 2 } };
    expect(mapped.decodeInline(parted)).toEqual({ ...parted, body: null });
    expect(gzippedOnly.decodeInline({ id: 2 })).toEqual({ id: 2, description: null });
  });

  it('a record after the write names the new parts, or none, and holds the text whole', () => {
    const record = { id: 1, body: 'old', body_parts: { generation: 'a1b2c3d4', count: 2 } };
    expect(mapped.withStored(record, mapped.store(owner, 'new'))).toEqual({ id: 1, body: 'new' });
    const text = noise(400_000);
    const stored = mapped.store(owner, text);
    expect(mapped.withStored({ id: 1, body: 'old' }, stored)).toEqual({
      id: 1,
      body: text,
      body_parts: stored.fields.body_parts,
    });
  });

  it('conditions a write on the parts read: their generation, none, or the version of its own', () => {
    expect(mapped.unchanged({ body: 'x' })).toEqual({
      condition: 'attribute_not_exists(#textParts)',
      names: { '#textParts': 'body_parts' },
    });
    expect(mapped.unchanged({ body_parts: { generation: 'a1b2c3d4', count: 2 } })).toEqual({
      condition: '#textParts.#textVersion = :textVersion',
      names: { '#textParts': 'body_parts', '#textVersion': 'generation' },
      values: { ':textVersion': 'a1b2c3d4' },
    });
    expect(versioned.unchanged({ content_version: 'a1b2c3d4e5f6', content: 'x' })).toEqual({
      condition: 'content_version = :previous',
      values: { ':previous': 'a1b2c3d4e5f6' },
    });
    // A text that never leaves its item has no parts to guard.
    expect(() => gzippedOnly.unchanged({ description: 'x' })).toThrow();
  });

  it('removes the forms a stored text no longer uses', () => {
    const names: Record<string, string> = {};
    expect(removeDropped(mapped.store(owner, 'x'), names)).toBe(' REMOVE #dropped, #dropped2');
    expect(names).toEqual({ '#dropped': 'body_gz', '#dropped2': 'body_parts' });
    expect(removeDropped(undefined, {})).toBe('');
  });
});
