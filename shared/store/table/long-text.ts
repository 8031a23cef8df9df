/**
 * Long texts: note bodies, snippet contents, descriptions of merge requests and issues. A text may
 * be 1,000,000 characters (up to 4 MB in UTF-8) and an item holds 400 KB in all, so a text is kept
 * in its owner's item as it is while short, gzipped while that is short enough, and otherwise
 * gzipped in parts: items in the owner's partition under a version new with each write, written
 * before the owner's item names them and removed once a write of the owner stops naming them.
 *
 * Each owner describes how it keeps its text in a `TextLayout` (its attribute names, how much its
 * item holds, its part keys); the rest is here: how a text is stored, how the texts of a page of
 * items are read back (the parts of all in one batch read), the condition that a text is still the
 * one read, and the removal of the parts a write replaced or left unnamed.
 */

import { randomBytes } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { batchDeleteItems, batchGetItems, batchWriteItems, type Key, keyString } from './batch.ts';
import type { Raw } from './raw.ts';
import { lockLost } from './transaction.ts';

/** How an owner keeps its text. */
export interface TextLayout {
  /** The attribute of a text kept as it is (a null text is kept so). */
  plain: string;
  /** The attribute of a text kept gzipped in the item, when the owner keeps it so. */
  gzipped?: string;
  /** Up to this many bytes, as it is or gzipped, a text stays in the item. */
  inlineBytes: number;
  /** Where a text too long for the item goes; without, it stays gzipped in the item, however long. */
  parts?: PartsLayout;
}

export interface PartsLayout {
  /** The attribute naming the parts: `{generation, count}`, or the count alone when `version` is set. */
  attribute: string;
  /** The version's own attribute, new with every text stored (parted or not), when the owner has one. */
  version?: string;
  /** Random bytes of a version. */
  versionBytes: number;
  /** The `kind` of a part item. */
  kind: string;
  /** The key of part `index` of a version of the text of the item at `owner`. */
  key: (owner: Key, version: string, index: number) => Key;
}

/** A text as it is about to be stored. */
export interface StoredText {
  text: string | null;
  /** The attributes that hold it in the owner's item. */
  fields: Raw;
  /** The layout's attributes the owner's item must no longer hold (an update REMOVEs them). */
  dropped: string[];
  /** The part items, written before the item that names them (see `replaceText`, `writeParts`). */
  parts: Raw[];
}

/** Each part of a gzipped text (an item holds 400 KB in all). */
const PART_BYTES = 300_000;

const attributesOf = (layout: TextLayout) =>
  [layout.plain, layout.gzipped, layout.parts?.attribute].filter((name) => name !== undefined);

/**
 * How a text is stored in the item at `owner`: as it is while it fits `inlineBytes`, else gzipped
 * while that fits (or always, for an owner without parts), else gzipped in parts under a new version.
 */
function storeText(layout: TextLayout, owner: Key, text: string | null): StoredText {
  const { parts } = layout;
  const version = parts ? randomBytes(parts.versionBytes).toString('hex') : '';
  const versioned: Raw = parts?.version ? { [parts.version]: version } : {};
  const stored = (held: Raw, items: Raw[] = []): StoredText => ({
    text,
    fields: { ...versioned, ...held },
    dropped: attributesOf(layout).filter((name) => !(name in held)),
    parts: items,
  });
  if (text === null || Buffer.byteLength(text) <= layout.inlineBytes) return stored({ [layout.plain]: text });
  const zipped = gzipSync(text);
  if (layout.gzipped !== undefined && (zipped.length <= layout.inlineBytes || !parts))
    return stored({ [layout.gzipped]: zipped });
  if (!parts) throw new Error(`a layout without parts or gzip cannot keep ${zipped.length} bytes`);
  const items: Raw[] = [];
  for (let start = 0, index = 0; start < zipped.length; start += PART_BYTES, index++) {
    items.push({
      ...parts.key(owner, version, index),
      kind: parts.kind,
      data: zipped.subarray(start, start + PART_BYTES),
    });
  }
  const named = parts.version ? items.length : { generation: version, count: items.length };
  return stored({ [parts.attribute]: named }, items);
}

/** Writes the parts of a text, before the item that names them. */
export async function writeParts(stored: StoredText | undefined): Promise<void> {
  if (stored?.parts.length) await batchWriteItems(stored.parts);
}

/** Where a record's text is, when in parts: their version and count. */
function partsOf(layout: TextLayout, record: object): { version: string; count: number } | undefined {
  const { parts } = layout;
  const named = parts && (record as Raw)[parts.attribute];
  if (!parts || named === undefined || named === null) return undefined;
  if (parts.version) return { version: String((record as Raw)[parts.version]), count: Number(named) };
  const { generation, count } = named as { generation: string; count: number };
  return { version: String(generation), count: Number(count) };
}

/** The keys of the parts a record's text is in (none when the item holds it). */
function partKeys(layout: TextLayout, owner: Key, record: object): Key[] {
  const where = partsOf(layout, record);
  const key = layout.parts?.key;
  if (!where || !key) return [];
  return Array.from({ length: where.count }, (_, index) => key(owner, where.version, index));
}

/** The text a record holds itself, as it is or gzipped; undefined when it is in parts. */
function inlineText(layout: TextLayout, record: object): string | null | undefined {
  const raw = record as Raw;
  if (partsOf(layout, raw)) return undefined;
  const zipped = layout.gzipped === undefined ? undefined : raw[layout.gzipped];
  if (zipped instanceof Uint8Array) return gunzipSync(zipped).toString('utf8');
  return (raw[layout.plain] as string | null | undefined) ?? null;
}

/** A record without the attributes that hold the text in the item (those naming parts stay). */
const withoutText = (layout: TextLayout, record: object): Raw =>
  Object.fromEntries(
    Object.entries(record).filter(([name]) => name !== layout.plain && name !== layout.gzipped),
  );

/**
 * An item with the text it holds itself in the plain attribute (gunzipped when need be), null when
 * it is in parts (see `readTexts`); the attributes naming parts stay.
 */
const inlineDecoded = (layout: TextLayout, item: Raw): Raw => ({
  ...withoutText(layout, item),
  [layout.plain]: inlineText(layout, item) ?? null,
});

/** A record as a write of `stored` leaves it: the text whole in the plain attribute, its parts named as written. */
function withStoredText<T extends object>(layout: TextLayout, record: T, stored: StoredText): T {
  const kept = Object.entries(record).filter(
    ([name]) => !attributesOf(layout).includes(name) && name !== layout.parts?.version,
  );
  const naming = Object.entries(stored.fields).filter(
    ([name]) => name !== layout.plain && name !== layout.gzipped,
  );
  return Object.fromEntries([...kept, ...naming, [layout.plain, stored.text]]) as T;
}

/** Times the texts of a page are read again when a write replaced some between the items' read and their parts'. */
const TEXT_READS = 5;

/** How the texts of a page of owners are read back. */
export interface TextReading<T, R> {
  /** The key of an owner's item. */
  key: (owner: T) => Key;
  /** The owner read again (undefined when it is gone: it leaves the page). */
  reread: (owner: T) => Promise<T | undefined>;
  /** The owner with its text. */
  decode: (owner: T, text: string | null) => R;
}

/**
 * The texts of a page of owners (items, or records that keep the text's attributes), the parts of
 * all read in one batch. A text whose parts are not all there was replaced or removed since its
 * owner was read: the owner is read again and its text anew, up to TEXT_READS times in all, then 409.
 */
async function readTexts<T extends object, R>(
  layout: TextLayout,
  owners: readonly T[],
  reading: TextReading<T, R>,
): Promise<R[]> {
  const read: ({ owner: T; text?: string | null } | undefined)[] = owners.map((owner) => ({ owner }));
  for (let attempt = 1; ; attempt++) {
    const wanted = read.flatMap((entry) =>
      entry && entry.text === undefined ? partKeys(layout, reading.key(entry.owner), entry.owner) : [],
    );
    const found = new Map(
      (wanted.length ? await batchGetItems(wanted) : []).map((part) => [keyString(part), part]),
    );
    const stale: number[] = [];
    read.forEach((entry, index) => {
      if (!entry || entry.text !== undefined) return;
      const keysOfText = partKeys(layout, reading.key(entry.owner), entry.owner);
      if (keysOfText.length === 0) entry.text = inlineText(layout, entry.owner) ?? null;
      else if (keysOfText.every((key) => found.has(keyString(key)))) {
        const chunks = keysOfText.map((key) => Buffer.from(found.get(keyString(key))?.data as Uint8Array));
        entry.text = gunzipSync(Buffer.concat(chunks)).toString('utf8');
      } else stale.push(index);
    });
    if (stale.length === 0) break;
    if (attempt >= TEXT_READS) throw lockLost();
    await Promise.all(
      stale.map(async (index) => {
        const fresh = await reading.reread((read[index] as { owner: T }).owner);
        read[index] = fresh === undefined ? undefined : { owner: fresh };
      }),
    );
  }
  return read.flatMap((entry) => (entry ? [reading.decode(entry.owner, entry.text ?? null)] : []));
}

/** A condition of a write, with its names and values. */
export interface TextGuard {
  condition: string;
  names?: Record<string, string>;
  values?: Raw;
}

/**
 * The condition that a record's text is still the one read: the same version of parts, or none
 * (for a layout with parts only).
 */
function textUnchanged(layout: TextLayout, record: object): TextGuard {
  const { parts } = layout;
  if (!parts) throw new Error('a text kept in its item has no parts to guard');
  if (parts.version)
    return {
      condition: `${parts.version} = :previous`,
      values: { ':previous': (record as Raw)[parts.version] },
    };
  const where = partsOf(layout, record);
  if (!where)
    return { condition: 'attribute_not_exists(#textParts)', names: { '#textParts': parts.attribute } };
  return {
    condition: '#textParts.#textVersion = :textVersion',
    names: { '#textParts': parts.attribute, '#textVersion': 'generation' },
    values: { ':textVersion': where.version },
  };
}

/** The REMOVE clause of an update storing a text, for the attributes it no longer uses ('' when none). */
export function removeDropped(stored: StoredText | undefined, names: Record<string, string>): string {
  const placeholders = (stored?.dropped ?? []).map((name, index) => {
    const placeholder = index === 0 ? '#dropped' : `#dropped${index + 1}`;
    names[placeholder] = name;
    return placeholder;
  });
  return placeholders.length ? ` REMOVE ${placeholders.join(', ')}` : '';
}

/**
 * Stores a text (or none, for a removal) by `write`, the write of its owner's item that names it:
 * the new parts are written first; when `write` fails they go again, and once it succeeds so do
 * the parts of the text it replaced or removed (`replaced`, the record that named them).
 */
async function replaceText<R>(
  layout: TextLayout,
  owner: Key,
  stored: StoredText | undefined,
  write: () => Promise<{ value: R; replaced?: object }>,
): Promise<R> {
  await writeParts(stored);
  let written: { value: R; replaced?: object };
  try {
    written = await write();
  } catch (error) {
    if (stored) await batchDeleteItems(partKeys(layout, owner, stored.fields));
    throw error;
  }
  if (written.replaced) await batchDeleteItems(partKeys(layout, owner, written.replaced));
  return written.value;
}

/** The operations on the texts of one layout: what an owner uses. */
export interface LongText {
  /** How a text is stored in the item at `owner` (see storeText). */
  store(owner: Key, text: string | null): StoredText;
  /** An item with the text it holds itself decoded into the plain attribute (null while in parts). */
  decodeInline(item: Raw): Raw;
  /** The texts of a page of owners, all their parts in one batch read (see readTexts). */
  read<T extends object, R>(owners: readonly T[], reading: TextReading<T, R>): Promise<R[]>;
  /** A record as a write of `stored` leaves it. */
  withStored<T extends object>(record: T, stored: StoredText): T;
  /** The condition that a record's text is still the one read. */
  unchanged(record: object): TextGuard;
  /** Stores a text by the write of its owner's item, removing the parts it leaves unnamed (see replaceText). */
  replace<R>(
    owner: Key,
    stored: StoredText | undefined,
    write: () => Promise<{ value: R; replaced?: object }>,
  ): Promise<R>;
}

/** The long texts of an owner, kept as its layout says. */
export const longText = (layout: TextLayout): LongText => ({
  store: (owner, text) => storeText(layout, owner, text),
  decodeInline: (item) => inlineDecoded(layout, item),
  read: (owners, reading) => readTexts(layout, owners, reading),
  withStored: (record, stored) => withStoredText(layout, record, stored),
  unchanged: (record) => textUnchanged(layout, record),
  replace: (owner, stored, write) => replaceText(layout, owner, stored, write),
});
